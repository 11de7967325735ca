/**
 * One local search client per page load, shared by the DocSearch modal and the /search page,
 * so the index is fetched once (on first use, never before).
 *
 * The index's URL (from the build side) carries its format: after an upgrade that changes the
 * format, a browser cannot answer from a cached file of the old one. A large site's sharded
 * index has its manifest at this URL, read by the same client; its other files carry the
 * manifest's content version in their URLs.
 */
import {createLocalSearchClient, type LocalSearchClient} from 'docs-search';

let client: LocalSearchClient | undefined;
let clientUrl: string | undefined;

export function getLocalSearchClient(indexUrl: string): LocalSearchClient {
  if (!client || clientUrl !== indexUrl) {
    client = createLocalSearchClient({indexUrl});
    clientUrl = indexUrl;
  }
  return client;
}
