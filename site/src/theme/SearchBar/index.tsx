/**
 * Replaces the stock SearchBar, which imports DocSearch statically (about 56 KB gzipped on every
 * page): a light button that looks the same, with the modal and its client loaded on first use.
 * Logic lives in src/search/.
 */
import React, {type ReactNode} from 'react';
import Head from '@docusaurus/Head';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import type {ThemeConfigAlgolia} from '@docusaurus/theme-search-algolia';
import '@docsearch/css/dist/_variables.css';
import '@docsearch/css/dist/button.css';
import '@site/src/search/styles.css';
import {SearchButton} from '@site/src/search/SearchButton';
import {useSearchSettings} from '@site/src/search/searchConfig';
import {useSearchLauncher} from '@site/src/search/useSearchLauncher';

export default function SearchBar(props: Partial<ThemeConfigAlgolia>): ReactNode {
  const {siteConfig} = useDocusaurusContext();
  const config = {...(siteConfig.themeConfig.algolia as ThemeConfigAlgolia), ...props};
  const settings = useSearchSettings();
  const {Modal, isOpen, initialQuery, buttonRef, preload, open, close} = useSearchLauncher();
  return (
    <>
      {settings.mode === 'algolia' && (
        <Head>
          {/* Lets the browser connect to the DocSearch cluster early; never in local mode. */}
          <link rel="preconnect" href={`https://${config.appId}-dsn.algolia.net`} crossOrigin="anonymous" />
        </Head>
      )}
      <SearchButton ref={buttonRef} onMouseOver={preload} onFocus={preload} onTouchStart={preload} onClick={() => open()} />
      {isOpen && Modal && <Modal config={config} settings={settings} initialQuery={initialQuery} onClose={close} />}
    </>
  );
}
