import {useEffect, type ReactNode} from 'react';
import {PageMetadata} from '@docusaurus/theme-common';
import {useDocsSidebar} from '@docusaurus/plugin-content-docs/client';
import {useHistory} from '@docusaurus/router';
import Link from '@docusaurus/Link';
import useBaseUrl from '@docusaurus/useBaseUrl';
import DocCardList from '@theme/DocCardList';
import Heading from '@theme/Heading';

/** The main document of the docs (the docs plugin's mainDocId). */
export const MAIN_DOC_PATH = '/docs/introduction';

/**
 * The documentation root (/docs). Rendered inside the docs layout, so the sidebar is there even
 * without JavaScript; with JavaScript the reader is sent on to the introduction at once, replacing
 * this history entry so Back does not bounce. noindex keeps it out of the sitemap and the index.
 */
export default function DocsRootPage(): ReactNode {
  const history = useHistory();
  const target = useBaseUrl(MAIN_DOC_PATH);
  const sidebar = useDocsSidebar();
  useEffect(() => {
    history.replace(target);
  }, [history, target]);
  return (
    <>
      <PageMetadata
        title="Documentation"
        description="The HomeWizard Energy local API documentation: start with the introduction.">
        <meta name="robots" content="noindex, follow" />
      </PageMetadata>
      <div className="container padding-top--md padding-bottom--lg">
        <article>
          <header>
            <Heading as="h1">Documentation</Heading>
            <p>
              Everything about the HomeWizard Energy local API, versions 1 and 2. New here? The
              introduction explains what the API does and which version to pick.
            </p>
            <Link className="button button--primary button--lg" to={MAIN_DOC_PATH}>
              Start with the introduction
            </Link>
          </header>
          {sidebar && (
            <section className="margin-top--lg" aria-label="All documentation">
              <DocCardList items={sidebar.items} />
            </section>
          )}
        </article>
      </div>
    </>
  );
}
