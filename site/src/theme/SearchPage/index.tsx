/**
 * The stock search page. Its `algoliasearch/lite` import resolves to src/search/liteClient.ts
 * (plugins/search-ui.ts), which answers from the local index in local mode; this
 * wrapper only marks the page in local mode so the "Powered by Algolia" credit is hidden there.
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
