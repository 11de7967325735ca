/**
 * One local search client per page load, shared by the DocSearch modal and the /search page,
 * so the index is fetched once (on first use, never before).
 */
import siteConfig from '@generated/docusaurus.config';
import {createLocalSearchClient, LOCAL_INDEX_FORMAT, LOCAL_INDEX_PATH, type LocalSearchClient} from 'docs-search';

let client: LocalSearchClient | undefined;

/**
 * The index's URL carries its format: after an upgrade that changes the format, a browser
 * cannot answer from a cached file of the old one (it would fail to load, and search would show
 * "Unable to fetch results" until the cache expired). A large site's sharded index (format 3)
 * has its manifest at this URL, read by the same client; its other files carry the manifest's
 * content version in their URLs.
 */
export function localIndexUrl(baseUrl: string = siteConfig.baseUrl): string {
  return `${baseUrl.replace(/\/*$/, '/')}${LOCAL_INDEX_PATH}?format=${LOCAL_INDEX_FORMAT}`;
}

export function getLocalSearchClient(): LocalSearchClient {
  client ??= createLocalSearchClient({indexUrl: localIndexUrl()});
  return client;
}
