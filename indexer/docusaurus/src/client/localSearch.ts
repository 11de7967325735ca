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
import type {EarlyState} from '../early-types.ts';
import {workerClient} from './worker-client.ts';

let client: LocalSearchClient | undefined;
let clientUrl: string | undefined;

export function getLocalSearchClient(indexUrl: string): LocalSearchClient {
  // The early search box (early-search.ts) may have fetched the index already: its client is
  // the modal's too, so the index is downloaded and its engine built once per page load.
  const early = typeof window === 'undefined' ? undefined : window.__docsSearchEarly;
  if (early && early.indexUrl === indexUrl) return early.client;
  // The box started the worker but its module has not arrived: the modal adopts the worker.
  const started = typeof window === 'undefined' ? undefined : window.__docsSearchWorker;
  if (started && !early) {
    const adopted = workerClient(started.url, indexUrl, started.worker);
    window.__docsSearchEarly = {client: adopted, indexUrl, selected: 0, count: 0, query: ''} satisfies EarlyState;
    return adopted;
  }
  if (!client || clientUrl !== indexUrl) {
    client = createLocalSearchClient({indexUrl});
    clientUrl = indexUrl;
    // And the other way round: a box opened after the modal asks this client.
    if (typeof window !== 'undefined') window.__docsSearchEarly = {client, indexUrl, selected: 0, count: 0, query: ''} satisfies EarlyState;
  }
  return client;
}
