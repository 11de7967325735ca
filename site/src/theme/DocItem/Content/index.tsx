/**
 * Docusaurus's DocItem content (the article: its title and MDX), rendered as the stock component
 * does, except while the first page of a visit hydrates: then the server's markup of the article
 * is kept as it is and its MDX components are not run at all (see src/server-article).
 */
import React, {useState, type ReactNode} from 'react';
import clsx from 'clsx';
import {ThemeClassNames} from '@docusaurus/theme-common';
import {useDoc} from '@docusaurus/plugin-content-docs/client';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Heading from '@theme/Heading';
import MDXContent from '@theme/MDXContent';
import type {Props} from '@theme/DocItem/Content';
import ServerArticle, {serverArticleMarkup} from '../../../server-article';

/** The stock component's title rule: front matter's title when the MDX has no h1 of its own. */
function useSyntheticTitle(): string | null {
  const {metadata, frontMatter, contentTitle} = useDoc();
  const shouldRender = !frontMatter.hide_title && typeof contentTitle === 'undefined';
  return shouldRender ? metadata.title : null;
}

const CLASS_NAME = clsx(ThemeClassNames.docs.docMarkdown, 'markdown');

export default function DocItemContent({children}: Props): ReactNode {
  const syntheticTitle = useSyntheticTitle();
  const {metadata} = useDoc();
  // Only the first render of a hydrating page finds the server's markup (useIsBrowser is false
  // until the app has hydrated); kept with the doc it belongs to.
  const isBrowser = useIsBrowser();
  const [server] = useState(() => {
    const html = isBrowser ? undefined : serverArticleMarkup(`.${ThemeClassNames.docs.docMarkdown}`);
    return html === undefined ? undefined : {id: metadata.id, html};
  });
  if (server && server.id === metadata.id) return <ServerArticle className={CLASS_NAME} html={server.html} />;
  return (
    <div className={CLASS_NAME}>
      {syntheticTitle && (
        <header>
          <Heading as="h1">{syntheticTitle}</Heading>
        </header>
      )}
      <MDXContent>{children}</MDXContent>
    </div>
  );
}
