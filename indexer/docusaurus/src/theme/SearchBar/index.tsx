/**
 * The navbar's search: a light button drawn like DocSearch's (the stock SearchBar imports
 * DocSearch, about 56 KB gzipped, on every page), with the modal and its client loaded on first
 * use. The logic is in docusaurus-theme-docs-search/client (src/client/).
 */
import React, {type ReactNode} from 'react';
import Head from '@docusaurus/Head';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import type {ThemeConfigAlgolia} from '@docusaurus/theme-search-algolia';
import '@docsearch/css/dist/_variables.css';
import '@docsearch/css/dist/button.css';
import {SearchButton, useSearchLauncher, useSearchSettings} from 'docusaurus-theme-docs-search/client';

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
