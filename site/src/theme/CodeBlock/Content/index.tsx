/**
 * Docusaurus's CodeBlock content (the <pre><code> with one line per row), changed so that the
 * browser needs Prism only for code it renders itself.
 *
 * - Server-side rendering highlights as the stock component does (every page's HTML has coloured code).
 * - Hydration keeps the server's <code> markup as it is (dangerouslySetInnerHTML of what is
 *   already in the page): no Prism in main.js and no tokenising or hydrating of thousands of token
 *   spans while a phone opens a long API page.
 * - A block first rendered in the browser (after a client-side navigation) shows its code as plain
 *   text at once and coloured as soon as the Prism chunk has loaded (src/code-highlighter).
 */
import React, {useEffect, useMemo, useState, type ComponentProps, type CSSProperties, type ReactNode} from 'react';
import clsx from 'clsx';
import {useCodeBlockContext} from '@docusaurus/theme-common/internal';
import {usePrismTheme} from '@docusaurus/theme-common';
import Line from '@theme/CodeBlock/Line';
import type {Props} from '@theme/CodeBlock/Content';
import {getHighlighter, loadHighlighter} from '../../../code-highlighter/client';
import type {CodeHighlighter} from '../../../code-highlighter/types';
import styles from './styles.module.css';

/** The arguments prism-react-renderer's Highlight gives its render function. */
type RenderProps = Parameters<ComponentProps<CodeHighlighter['Highlight']>['children']>[0];
type LineProps = ComponentProps<typeof Line>;

/** The attribute that lets hydration find the server's markup of this block. */
const MARKUP_ATTRIBUTE = 'data-code-block';

/**
 * The key that finds a block's server markup: a hash of what the markup is made from (language,
 * line options, code), the same on the server and in the browser whatever the tree around the
 * block (a useId would change with it: the first page's article and a phone's hidden sidebar keep
 * their server markup, src/server-article and src/hidden-on-phone). Two blocks with one key have
 * the same markup, so either one's serves.
 */
function markupKey(parts: unknown[]): string {
  const text = JSON.stringify(parts);
  let hash = 0x811c9dc5; // FNV-1a, 32 bits
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `cb-${(hash >>> 0).toString(36)}`;
}

/** The server's highlighted markup of the block with this key, while the page is being hydrated. */
function serverMarkup(id: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector(`code[${MARKUP_ATTRIBUTE}="${CSS.escape(id)}"]`)?.innerHTML;
}

/** The highlighter, loading it when this block has to highlight in the browser. */
function useHighlighter(needed: boolean): CodeHighlighter | undefined {
  const [highlighter, setHighlighter] = useState(getHighlighter);
  useEffect(() => {
    if (!needed || highlighter) return undefined;
    let live = true;
    loadHighlighter().then(
      (loaded) => live && setHighlighter(loaded),
      () => undefined, // the code stays readable as plain text
    );
    return () => {
      live = false;
    };
  }, [needed, highlighter]);
  return highlighter;
}

/** Unhighlighted render props, shaped as prism-react-renderer's (one plain token per line). */
function plainRenderProps(code: string, language: string, plain: CSSProperties): RenderProps {
  const lineStyle = {...plain, backgroundColor: undefined};
  return {
    tokens: code.split(/\r\n|\r|\n/).map((content) => [content ? {types: ['plain'], content} : {types: ['plain'], content: '\n', empty: true}]),
    className: `prism-code language-${language.toLowerCase()}`,
    style: plain,
    getLineProps: ({className, style, line: _line, ...rest}) => ({
      ...rest,
      className: clsx('token-line', className),
      style: {...lineStyle, ...style},
    }),
    getTokenProps: ({token, className, style, ...rest}) => ({
      ...rest,
      className: clsx('token', ...token.types, className),
      children: token.content,
      style: token.empty ? {display: 'inline-block', ...style} : style,
    }),
  };
}

export default function CodeBlockContent({className: classNameProp}: Props): ReactNode {
  const {metadata, wordWrap} = useCodeBlockContext();
  const prismTheme = usePrismTheme();
  const {code, language, lineNumbersStart, lineClassNames} = metadata;
  const id = useMemo(() => markupKey([language, lineNumbersStart, lineClassNames, code]), [language, lineNumbersStart, lineClassNames, code]);
  // Read once, on the first render: during hydration the block's markup is in the page.
  const [hydrated] = useState(() => {
    const html = serverMarkup(id);
    return html === undefined ? undefined : {code, html};
  });
  const keepServerMarkup = hydrated !== undefined && hydrated.code === code;
  const highlighter = useHighlighter(!keepServerMarkup);

  const codeProps = {
    [MARKUP_ATTRIBUTE]: id,
    className: clsx(styles.codeBlockLines, lineNumbersStart !== undefined && styles.codeBlockLinesWithNumbering),
    style: lineNumbersStart === undefined ? undefined : {counterReset: `line-count ${lineNumbersStart - 1}`},
  };
  const renderBlock = ({className, style, tokens, getLineProps, getTokenProps}: RenderProps) => (
    <pre
      ref={wordWrap.codeBlockRef}
      // Scrollable code must be reachable by keyboard.
      tabIndex={0}
      className={clsx(classNameProp, className, styles.codeBlock, 'thin-scrollbar')}
      style={style}>
      {keepServerMarkup ? (
        <code {...codeProps} dangerouslySetInnerHTML={{__html: hydrated.html}} />
      ) : (
        <code {...codeProps}>
          {tokens.map((line, i) => (
            <Line
              key={i}
              line={line}
              getLineProps={getLineProps as LineProps['getLineProps']}
              getTokenProps={getTokenProps as LineProps['getTokenProps']}
              classNames={lineClassNames[i]}
              showLineNumbers={lineNumbersStart !== undefined}
            />
          ))}
        </code>
      )}
    </pre>
  );

  if (highlighter && !keepServerMarkup) {
    const {Highlight} = highlighter;
    return (
      <Highlight theme={prismTheme} code={code} language={language ?? 'text'}>
        {renderBlock}
      </Highlight>
    );
  }
  // Kept server markup needs no lines of its own: split the code only for a plain rendering.
  return renderBlock(plainRenderProps(keepServerMarkup ? '' : code, language ?? 'text', prismTheme.plain));
}
