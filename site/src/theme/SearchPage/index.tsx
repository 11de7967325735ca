/**
 * The stock search page. In local mode `algoliasearch/lite` resolves to the local client
 * (plugins/search-client-alias.ts), so the page answers from the local index; this wrapper only
 * marks the page so the "Powered by Algolia" credit is hidden there.
 */
import React, {type ReactNode} from 'react';
import SearchPage from '@theme-original/SearchPage';
import {HtmlClassNameProvider} from '@docusaurus/theme-common';
import '@site/src/search/styles.css';
import {useSearchSettings} from '@site/src/search/searchConfig';

export default function SearchPageWrapper(): ReactNode {
  const {mode} = useSearchSettings();
  if (mode !== 'local') return <SearchPage />;
  return (
    <HtmlClassNameProvider className="search-page--local">
      <SearchPage />
    </HtmlClassNameProvider>
  );
}
