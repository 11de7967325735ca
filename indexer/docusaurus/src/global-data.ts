/**
 * What the build side (index.ts) hands the browser side (client/searchConfig.ts) as the plugin's
 * global data, and the name it is stored under: defined once for both. No imports, so the browser
 * build takes it as it is.
 */
export const PLUGIN_NAME = 'docusaurus-theme-docs-search';

export type SearchMode = 'local' | 'algolia';

/** What the browser side reads (plugin global data). */
export interface SearchGlobalData {
  mode: SearchMode;
  /** `docusaurus start`: no index is built (it is made from the built pages); the modal says so. */
  dev: boolean;
  /** Local mode: names the stored recent and favourite searches. */
  indexName: string;
  /** Local mode: the index file (or manifest) URL, with the baseUrl of the site's locale. */
  indexUrl: string;
  searchPagePath: string | null;
  /** The "Let us know" link of the no-results screen, `{query}` in it; null: no link. */
  missingResultsUrl: string | null;
}
