/**
 * Stands in for `algoliasearch/lite` (resolve alias set by plugins/search-ui.ts).
 * Docusaurus's /search page calls `liteClient(appId, apiKey)` on every render and hands the
 * client to algoliasearch-helper; it cannot be given another client. In local mode every call
 * returns the shared local client, so the page answers from the local index and never contacts
 * Algolia; in Algolia mode it is Algolia's own lite client.
 *
 * The mode is read at run time, not by switching the alias per build: the bundler's persistent
 * cache does not notice alias changes, so a per-mode alias would leak one mode's resolution into
 * the next build of the other mode.
 */
import siteConfig from '@generated/docusaurus.config';
import {liteClient as algoliaLiteClient} from 'algoliasearch/dist/lite/builds/browser';
import {getLocalSearchClient} from './localSearch';
import {readSearchSettings} from './searchConfig';

export function liteClient(...args: Parameters<typeof algoliaLiteClient>) {
  if (readSearchSettings(siteConfig.customFields).mode === 'local') return getLocalSearchClient();
  return algoliaLiteClient(...args);
}

export default liteClient;
