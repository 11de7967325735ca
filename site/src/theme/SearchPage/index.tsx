/**
 * The stock search page. Its `algoliasearch/lite` import resolves to src/search/liteClient.ts
 * (plugins/search-ui.ts), which answers from the local index in local mode; this
 * wrapper only marks the page in local mode so the "Powered by Algolia" credit is hidden there,
 * and keeps `q` within what a search engine reads (see capQuery).
 */
import React, {useEffect, type ReactNode} from 'react';
import SearchPage from '@theme-original/SearchPage';
import {HtmlClassNameProvider, useSearchQueryString} from '@docusaurus/theme-common';
import '@site/src/search/styles.css';
import {useSearchSettings} from '@site/src/search/searchConfig';

/** Algolia reads at most 512 bytes of a query; the local engine the first 512 characters. */
const MAX_QUERY_BYTES = 512;

/**
 * The longest start of `query` within MAX_QUERY_BYTES of UTF-8, never splitting a character.
 * The stock page shows an answer only when the answer's query equals the one in the URL: an
 * engine that shortened a longer query got its answer dropped, leaving the results area blank.
 */
export function capQuery(query: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(query).length <= MAX_QUERY_BYTES) return query;
  let bytes = 0;
  let end = 0;
  for (const char of query) {
    bytes += encoder.encode(char).length;
    if (bytes > MAX_QUERY_BYTES) break;
    end += char.length;
  }
  return query.slice(0, end);
}

export default function SearchPageWrapper(): ReactNode {
  const {mode} = useSearchSettings();
  const [query, setQuery] = useSearchQueryString();
  useEffect(() => {
    const capped = capQuery(query);
    if (capped !== query) setQuery(capped);
  }, [query, setQuery]);
  if (mode !== 'local') return <SearchPage />;
  return (
    <HtmlClassNameProvider className="search-page--local">
      <SearchPage />
    </HtmlClassNameProvider>
  );
}
