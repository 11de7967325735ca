/**
 * One local search client per page load, shared by the DocSearch modal and the /search page,
 * so the index is fetched once (on first use, never before).
 */
import siteConfig from '@generated/docusaurus.config';
import {createLocalSearchClient, type LocalSearchClient} from './localClient';
import {LOCAL_INDEX_PATH} from './searchConfig';

let client: LocalSearchClient | undefined;

export function localIndexUrl(baseUrl: string = siteConfig.baseUrl): string {
  return `${baseUrl.replace(/\/*$/, '/')}${LOCAL_INDEX_PATH}`;
}

export function getLocalSearchClient(): LocalSearchClient {
  client ??= createLocalSearchClient({indexUrl: localIndexUrl()});
  return client;
}
