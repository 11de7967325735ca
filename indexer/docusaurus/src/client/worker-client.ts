/**
 * The local search client of early-worker.js, on the page's side: docs-search's client (the
 * modal's) running in a worker, behind the client's own interface. The early box (early-search.ts)
 * and the modal (localSearch.ts) ask it as they would ask the client itself.
 */
import type {LocalSearchClient} from 'docs-search';

/** A client answered by the worker at `workerUrl`; `started` is one the box started already. */
export function workerClient(workerUrl: string, indexUrl: string, started: Worker | null = null): LocalSearchClient {
  let worker: Worker | null = null;
  let next = 0;
  const pending = new Map<number, {resolve: (value: unknown) => void; reject: (error: Error) => void}>();
  const fail = (message: string) => {
    // The worker could not start or stopped: every call waiting fails as an unreachable index
    // (DocSearch's error screen), and the next call starts a new worker.
    worker?.terminate();
    worker = null;
    for (const {reject} of pending.values()) reject(Object.assign(new Error(message), {name: 'RetryError'}));
    pending.clear();
  };
  const start = (): Worker => adopt(new Worker(workerUrl));
  function adopt(created: Worker): Worker {
    created.onmessage = (event: MessageEvent<{id: number; result?: unknown; error?: {name: string; message: string}}>) => {
      const {id, result, error} = event.data;
      const call = pending.get(id);
      pending.delete(id);
      if (!call) return;
      if (error) call.reject(Object.assign(new Error(error.message), {name: error.name}));
      else call.resolve(result);
    };
    created.onerror = (event) => {
      event.preventDefault();
      fail(`The local search worker ${workerUrl} failed: ${event.message}`);
    };
    return created;
  }
  // A worker the box started as it opened (shell.inline.js), its index already on the way.
  if (started) worker = adopt(started);
  const call = <T>(method: 'search' | 'searchForFacetValues', args: unknown[]): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++next;
      pending.set(id, {resolve: resolve as (value: unknown) => void, reject});
      worker ??= start();
      worker.postMessage({id, indexUrl, method, args});
    });
  return {
    appId: 'local',
    search: (request) => call('search', [request]),
    searchForFacetValues: (request) => call('searchForFacetValues', [request]),
    addAlgoliaAgent() {},
    async clearCache() {},
  };
}
