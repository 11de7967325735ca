/**
 * The search settings the theme's build side decided (src/index.ts), as the browser reads them:
 * the plugin's global data.
 */
import {usePluginData} from '@docusaurus/useGlobalData';

export type SearchMode = 'algolia' | 'local';

export interface SearchSettings {
  mode: SearchMode;
  /** `docusaurus start`: the local index is built only by `docusaurus build`. */
  dev: boolean;
  /** Local mode: names the stored recent and favourite searches. */
  indexName: string;
  /** Local mode: the index file (or manifest) URL, with the baseUrl of the site's locale. */
  indexUrl: string;
  searchPagePath: string | null;
  /** The "Let us know" link of the no-results screen, `{query}` in it; null: no link. */
  missingResultsUrl: string | null;
}

export const PLUGIN_NAME = 'docusaurus-theme-docs-search';

export function useSearchSettings(): SearchSettings {
  return usePluginData(PLUGIN_NAME) as SearchSettings;
}

/** The "Let us know" link for `query`. */
export function missingResultsUrl(template: string, query: string): string {
  return template.replace(/\{query\}/g, encodeURIComponent(query));
}
