/**
 * The browser's local search client: answers DocSearch's modal and Docusaurus's /search page from
 * the local index shipped in the build (LOCAL_INDEX_PATH), with Algolia's lite client's request and
 * response shape, so neither can tell it from Algolia.
 *
 * Interface (agreed with the search UI):
 *   const client = createLocalSearchClient({indexUrl: useBaseUrl('/search/local-index.json')});
 *   // modal: DocSearch `transformSearchClient={() => client}`
 *   client.search({requests: [{indexName, query, hitsPerPage, attributesToSnippet, ...}]})
 *   // /search page: algoliasearch-helper (legacy multi-query form; params object or string)
 *   client.search([{indexName, params: {query, page, hitsPerPage, facets, facetFilters}}])
 *   → Promise<{results: AlgoliaResponse[]}>
 * - The index is fetched on the first `search` call, never before; concurrent calls share one
 *   fetch. A one-file index is read, and its engine built, as it downloads.
 *   If it cannot be fetched or parsed the call rejects with an Error named `RetryError`
 *   (the only error DocSearch turns into "Unable to fetch results"); the next call tries again.
 * - A sharded index (format 3, see README.md): `indexUrl` is its manifest; each search first
 *   fetches the terms files of its words and the records of the hits it returns (from
 *   `local-index/` beside the manifest), each file once per page load.
 * - `snippetWords` is the snippet length when a request names none (`content:10` otherwise).
 * - Only `indexUrl` and the files beside it are fetched: nothing leaves the site's origin.
 * - `addAlgoliaAgent`, `clearCache` are no-ops kept for callers that expect a lite client.
 */
import {answerQuery, type AlgoliaResponse, type QueryParams} from './engine/answer.ts';
import {IndexFileStream} from './engine/index-stream.ts';
import {isShardManifest, SHARD_DIR, shardKey, termsFile} from './engine/manifest.ts';
import {LocalSearchEngine} from './engine/search.ts';
import {tokenizeQuery} from './engine/text.ts';
// Only a type: the sharded reader is a chunk of its own, imported when a manifest is read (below).
import type {ShardLoader} from './shard-loader.ts';

export interface LocalSearchClientOptions {
  /** URL of the local index file, e.g. `/search/local-index.json` (with the site's baseUrl). */
  indexUrl: string;
  /** Snippet length when a request does not name one. */
  snippetWords?: number;
  /**
   * Injected in tests; defaults to the global fetch. A response with a `body` stream is read as
   * it arrives (a one-file index is built meanwhile: see engine/index-stream.ts).
   */
  fetch?: (url: string) => Promise<{ok: boolean; status: number; json(): Promise<unknown>; body?: ReadableStream<Uint8Array> | null}>;
}

/** The modal's form: `search({requests})`; each request carries its own parameters. */
export interface ModalSearchRequest extends QueryParams {
  indexName: string;
}
/** The legacy form algoliasearch-helper sends: `search([{indexName, params}])`. */
export interface LegacySearchRequest {
  indexName: string;
  params?: QueryParams | string;
}

export interface LocalSearchClient {
  readonly appId: string;
  search(
    request: {requests: ModalSearchRequest[]} | LegacySearchRequest[],
  ): Promise<{results: AlgoliaResponse[]}>;
  searchForFacetValues(
    request: {indexName: string; facetName: string; searchForFacetValuesRequest?: {facetQuery?: string}}[] | {indexName: string; facetName: string; facetQuery?: string},
  ): Promise<unknown>;
  addAlgoliaAgent(segment: string, version?: string): void;
  clearCache(): Promise<void>;
}

/** The error DocSearch recognises as "the search service could not be reached". */
export class RetryError extends Error {
  override name = 'RetryError';
  constructor(message: string) {
    super(message);
  }
}

/** Parses `a=1&b=%5B...%5D` (values JSON when they look like it). */
export function parseParamString(params: string): QueryParams {
  const out: QueryParams = {};
  for (const [key, raw] of new URLSearchParams(params)) {
    let value: unknown = raw;
    if (/^[[{]/.test(raw) || /^(?:-?\d+(?:\.\d+)?|true|false)$/.test(raw)) {
      try {
        value = JSON.parse(raw);
      } catch {
        value = raw;
      }
    }
    out[key] = value;
  }
  return out;
}

export function createLocalSearchClient(options: LocalSearchClientOptions): LocalSearchClient {
  const doFetch = options.fetch ?? ((url: string) => fetch(url, {credentials: 'same-origin'}));
  let loading: Promise<LocalSearchEngine | ShardLoader> | null = null;
  // Shard files live in SHARD_DIR beside the index file.
  const dir = `${options.indexUrl.replace(/[?#].*$/, '').replace(/[^/]*$/, '')}${SHARD_DIR}/`;

  const get = async (url: string) => {
    let res;
    try {
      res = await doFetch(url);
    } catch (cause) {
      throw new RetryError(`Unreachable local search index ${url}: ${String(cause)}`);
    }
    if (!res.ok) throw new RetryError(`Local search index ${url} answered HTTP ${res.status}`);
    return res;
  };
  const unreadable = (url: string, cause: unknown) => new RetryError(`Unreadable local search index ${url}: ${String(cause)}`);

  const getJson = async (url: string): Promise<unknown> => {
    const res = await get(url);
    try {
      return await res.json();
    } catch (cause) {
      throw unreadable(url, cause);
    }
  };

  /**
   * The index file: a one-file index is read and its engine built while it downloads (most of
   * the building is done by its last byte); anything else (a manifest) is returned as JSON.
   */
  const getIndex = async (url: string): Promise<{engine: LocalSearchEngine} | {json: unknown}> => {
    const res = await get(url);
    try {
      if (!res.body || typeof TextDecoder === 'undefined') return {json: await res.json()};
      const stream = new IndexFileStream();
      const decoder = new TextDecoder();
      const reader = res.body.getReader();
      for (;;) {
        const {done, value} = await reader.read();
        if (done) break;
        stream.push(decoder.decode(value, {stream: true}));
      }
      stream.push(decoder.decode());
      return stream.end();
    } catch (cause) {
      throw unreadable(url, cause);
    }
  };

  const load = (requests: QueryParams[]): Promise<LocalSearchEngine | ShardLoader> => {
    loading ??= (async () => {
      const index = await getIndex(options.indexUrl);
      if ('engine' in index) return index.engine;
      const {json} = index;
      try {
        if (!isShardManifest(json)) return LocalSearchEngine.fromIndexFile(json);
        // The sharded reader is loaded only for a sharded index: a site with one index file
        // (ours) never downloads or parses it (a bundler makes this import a chunk of its own).
        // Meanwhile the terms files of the words asked for are fetched (the reader would fetch
        // them first), so the reader's round trip is not added to the first answer's.
        const prefetched = new Map<string, Promise<unknown>>();
        const shards = new Set(json.shards);
        for (const params of requests) {
          for (const word of tokenizeQuery(String(params.query ?? '').slice(0, 512)).slice(0, 30)) {
            const key = shardKey(word);
            const file = termsFile(key);
            if (!shards.has(key) || prefetched.has(file)) continue;
            const p = getJson(`${dir}${file}?v=${json.version}`);
            p.catch(() => {}); // (a failed file is fetched again by the reader)
            prefetched.set(file, p);
          }
        }
        const {ShardLoader} = await import('./shard-loader.ts');
        return new ShardLoader(json, dir, getJson, prefetched);
      } catch (cause) {
        throw new RetryError(`Unreadable local search index ${options.indexUrl}: ${String(cause)}`);
      }
    })();
    // A failed load is retried by the next search.
    loading.catch(() => {
      loading = null;
    });
    return loading;
  };

  /** The engine, with what answering these requests reads fetched (a sharded index). */
  const engine = async (requests: QueryParams[]): Promise<LocalSearchEngine> => {
    const source = await load(requests);
    if (source instanceof LocalSearchEngine) return source;
    try {
      await Promise.all(requests.map((params) => source.prepare(params)));
    } catch (cause) {
      throw cause instanceof RetryError ? cause : new RetryError(`Unreadable local search index: ${String(cause)}`);
    }
    return source.engine;
  };

  const answer = (e: LocalSearchEngine, indexName: string, params: QueryParams) =>
    answerQuery(e, indexName, params, {snippetWords: options.snippetWords, now: () => performance.now()});

  return {
    appId: 'local',
    async search(request) {
      if (Array.isArray(request)) {
        const list = request.map(({indexName, params}) => ({indexName, params: typeof params === 'string' ? parseParamString(params) : (params ?? {})}));
        const e = await engine(list.map((r) => r.params));
        return {results: list.map(({indexName, params}) => answer(e, indexName, params))};
      }
      const e = await engine(request.requests);
      return {results: request.requests.map(({indexName, ...params}) => answer(e, indexName, params))};
    },
    async searchForFacetValues(request) {
      const e = await engine([]);
      const list = Array.isArray(request)
        ? request.map((r) => ({facetName: r.facetName, facetQuery: r.searchForFacetValuesRequest?.facetQuery ?? ''}))
        : [{facetName: request.facetName, facetQuery: request.facetQuery ?? ''}];
      const answers = list.map(({facetName, facetQuery}) => {
        const counts = answer(e, '', {query: '', hitsPerPage: 0, facets: [facetName]}).facets?.[facetName] ?? {};
        const facetHits = Object.entries(counts)
          .filter(([value]) => value.toLowerCase().startsWith(facetQuery.toLowerCase()))
          .map(([value, count]) => ({value, highlighted: value, count}));
        return {facetHits, exhaustiveFacetsCount: true, processingTimeMS: 0};
      });
      return Array.isArray(request) ? answers : answers[0];
    },
    addAlgoliaAgent() {},
    async clearCache() {},
  };
}
