/**
 * Stands in for `algoliasearch/lite` in local mode (resolve alias set by
 * plugins/search-client-alias.ts). Docusaurus's /search page calls `liteClient(appId, apiKey)`
 * on every render and hands the client to algoliasearch-helper; here every call returns the
 * shared local client, so the page answers from the local index and never contacts Algolia.
 */
import {getLocalSearchClient} from './localSearch';

export function liteClient(_appId?: string, _apiKey?: string, _options?: unknown) {
  return getLocalSearchClient();
}

export default liteClient;
