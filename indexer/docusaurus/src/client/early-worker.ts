/**
 * The early search box's engine, in a worker (bundled by scripts/build.js into
 * lib/early/early-worker.js, copied beside early-search.js): docs-search's createLocalSearchClient,
 * the modal's client, run off the page's main thread, so that downloading the index and building
 * its engine (hundreds of milliseconds on a slow phone) never delays the app's hydration.
 * early-search.ts talks to it with {id, indexUrl, method, args} and gets {id, result} or
 * {id, error: {name, message}} (a RetryError keeps its name: DocSearch shows its error screen).
 */
import {createLocalSearchClient, type LocalSearchClient} from 'docs-search';

interface Request {
  id: number;
  indexUrl: string;
  method: 'search' | 'searchForFacetValues';
  args: unknown[];
}

/** The worker's global scope (typed by hand: the DOM and WebWorker libraries cannot both be loaded). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Request>) => void) | null;
  postMessage(message: unknown): void;
  location: Location;
};
let client: LocalSearchClient | undefined;

scope.onmessage = (event: MessageEvent<Request>) => {
  const {id, indexUrl, method, args} = event.data;
  // A low fetch priority: on a slow link the app's own scripts, downloading at the same time, go first.
  client ??= createLocalSearchClient({
    indexUrl: new URL(indexUrl, scope.location.href).href,
    fetch: (url) => fetch(url, {credentials: 'same-origin', priority: 'low'} as RequestInit),
  });
  const call = client[method] as (...a: unknown[]) => Promise<unknown>;
  call.apply(client, args).then(
    (result) => scope.postMessage({id, result}),
    (error: unknown) => {
      const {name, message} = error instanceof Error ? error : {name: 'Error', message: String(error)};
      scope.postMessage({id, error: {name, message}});
    },
  );
};
