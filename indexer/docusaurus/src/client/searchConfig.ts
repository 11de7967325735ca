/**
 * The search settings the theme's build side decided (src/index.ts), as the browser reads them:
 * the plugin's global data.
 */
import {usePluginData} from '@docusaurus/useGlobalData';
import {PLUGIN_NAME, type SearchGlobalData} from '../global-data.ts';

export {PLUGIN_NAME, type SearchMode} from '../global-data.ts';

/** The build side's SearchGlobalData, as the browser reads it. */
export type SearchSettings = SearchGlobalData;

export function useSearchSettings(): SearchSettings {
  return usePluginData(PLUGIN_NAME) as SearchSettings;
}

/** The "Let us know" link for `query`. */
export function missingResultsUrl(template: string, query: string): string {
  return template.replace(/\{query\}/g, encodeURIComponent(query));
}
