/**
 * A doc page's article kept as the server rendered it, on the first load of a page only.
 *
 * A docs article is static HTML but for its links and code-block buttons: headings, tables,
 * highlighted code and prose never change after the build. Hydrating it means running every MDX
 * component (Heading, Link, CodeBlock, table and list wrappers) only to adopt markup that is
 * already on screen: on /docs/v2/measurement that is about 1,100 elements, on a phone the larger
 * part of the page's hydration. Here the article's server markup is adopted as it stands
 * (`dangerouslySetInnerHTML` of what is in the page: React neither walks nor replaces it), and
 * the two interactive parts get what the MDX components gave them, once the app has hydrated:
 * - links to pages of the site navigate in the app (history.push, as Docusaurus's Link does for
 *   the same clicks) and preload the page on hover and touch, through one delegated listener;
 * - each code block gets Docusaurus's own Copy and word-wrap buttons, rendered into it as it comes
 *   near the viewport.
 *
 * Everything else is the browser's: in-page anchors, links to other hosts (the server markup
 * already gives them target=_blank), links with a target or a modifier key.
 *
 * A page is rendered normally (every component hydrated) when its article carries the marker
 * `data-hydrate`: plugins/remark-needs-hydration.ts puts it first in any doc whose MDX has a
 * component of its own (a Mermaid diagram's wrapper marks itself, src/theme/Mermaid); when no
 * server markup is in the page (the dev server renders in the browser only); and on every
 * client-side navigation.
 */
import React, {useEffect, useRef, useState, type ReactNode, type RefObject} from 'react';
import {createPortal} from 'react-dom';
import {useHistory} from '@docusaurus/router';
import isInternalUrl from '@docusaurus/isInternalUrl';
import {CodeBlockContextProvider, createCodeBlockMetadata, useCodeWordWrap} from '@docusaurus/theme-common/internal';
import CodeBlockButtons from '@theme/CodeBlock/Buttons';

import {NEEDS_HYDRATION_ATTRIBUTE} from './marker';

export {NEEDS_HYDRATION_ATTRIBUTE};

/**
 * The server's markup of the article, when this render hydrates it and it may be kept as it is;
 * undefined otherwise. `selector` finds the article's element in the page.
 */
export function serverArticleMarkup(selector: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const article = document.querySelector(selector);
  if (!article || article.querySelector(`[${NEEDS_HYDRATION_ATTRIBUTE}]`)) return undefined;
  return article.innerHTML;
}

/**
 * The link a click or hover inside the article should route in the app: a link to a page of this
 * site that Docusaurus's Link would have rendered as a router link (see @docusaurus/core's
 * Link: internal, no target other than _self, not an in-page anchor, not a download).
 */
function routedLink(target: EventTarget | null, root: HTMLElement): HTMLAnchorElement | undefined {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || !root.contains(link)) return undefined;
  const href = link.getAttribute('href')!;
  if (!isInternalUrl(href) || href.startsWith('#') || link.hasAttribute('download')) return undefined;
  if (link.target && link.target !== '_self') return undefined;
  return link;
}

/** What a router link does on a click, on the article's server-rendered links. */
function useRoutedLinks(ref: RefObject<HTMLElement | null>): void {
  const history = useHistory();
  useEffect(() => {
    const root = ref.current;
    if (!root) return undefined;
    const preloaded = new Set<string>();
    const preload = (event: Event) => {
      const link = routedLink(event.target, root);
      if (!link) return;
      const href = link.getAttribute('href')!;
      if (preloaded.has(href)) return;
      preloaded.add(href);
      void window.docusaurus.preload(href);
    };
    const click = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = routedLink(event.target, root);
      if (!link) return;
      event.preventDefault();
      history.push(link.getAttribute('href')!);
    };
    root.addEventListener('mouseover', preload);
    root.addEventListener('touchstart', preload, {passive: true});
    root.addEventListener('click', click);
    return () => {
      root.removeEventListener('mouseover', preload);
      root.removeEventListener('touchstart', preload);
      root.removeEventListener('click', click);
    };
  }, [ref, history]);
}

/** A code block's text as its lines show it (each line ends with a <br>, an empty one holds "\n"). */
function codeText(pre: HTMLPreElement): string {
  const lines = pre.querySelectorAll('.token-line');
  if (lines.length === 0) return pre.textContent ?? '';
  return Array.from(lines, (line) => (line.textContent ?? '').replace(/\n$/, '')).join('\n');
}

/** Docusaurus's code-block buttons (word wrap, copy) for one server-rendered block. */
function ServerCodeBlockButtons({pre}: {pre: HTMLPreElement}): ReactNode {
  const [metadata] = useState(() =>
    createCodeBlockMetadata({
      code: codeText(pre),
      className: undefined,
      language: undefined,
      defaultLanguage: undefined,
      metastring: undefined,
      magicComments: [],
      title: undefined,
      showLineNumbers: undefined,
    }),
  );
  const wordWrap = useCodeWordWrap();
  // The hook's own effects measure the block through this ref; they run after this render.
  (wordWrap.codeBlockRef as React.MutableRefObject<HTMLPreElement>).current = pre;
  return createPortal(
    <CodeBlockContextProvider metadata={metadata} wordWrap={wordWrap}>
      <CodeBlockButtons />
    </CodeBlockContextProvider>,
    pre.parentElement!,
  );
}

/** The article's server markup, adopted as it is, with its links and code-block buttons working. */
export default function ServerArticle({className, html}: {className: string; html: string}): ReactNode {
  const ref = useRef<HTMLDivElement>(null);
  // Code blocks get their buttons as they come within a screen's height of the viewport, not all
  // in the render that ends hydration: on /docs/v2/measurement that render carried seven blocks'
  // buttons (about 160 React elements) for blocks mostly far below the first screen.
  const [blocks, setBlocks] = useState<HTMLPreElement[]>([]);
  useEffect(() => {
    const pres = ref.current!.querySelectorAll<HTMLPreElement>('pre:has(> code[data-code-block])');
    if (pres.length === 0) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        const near = entries.filter((entry) => entry.isIntersecting).map((entry) => entry.target as HTMLPreElement);
        if (near.length === 0) return;
        for (const pre of near) observer.unobserve(pre);
        setBlocks((current) => [...current, ...near]);
      },
      {rootMargin: '100% 0px'},
    );
    pres.forEach((pre) => observer.observe(pre));
    return () => observer.disconnect();
  }, []);
  useRoutedLinks(ref);
  return (
    <>
      <div ref={ref} className={className} dangerouslySetInnerHTML={{__html: html}} />
      {blocks.map((pre, i) => (
        <ServerCodeBlockButtons key={i} pre={pre} />
      ))}
    </>
  );
}
