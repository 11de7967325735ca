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
 *   fetch. If it cannot be fetched or parsed the call rejects with an Error named `RetryError`
 *   (the only error DocSearch turns into "Unable to fetch results"); the next call tries again.
 * - A sharded index (format 3, see README.md): `indexUrl` is its manifest; each search first
 *   fetches the terms files of its words and the records of the hits it returns (from
 *   `local-index/` beside the manifest), each file once per page load.
 * - `snippetWords` is the snippet length when a request names none (`content:10` otherwise).
 * - Only `indexUrl` and the files beside it are fetched: nothing leaves the site's origin.
 * - `addAlgoliaAgent`, `clearCache` are no-ops kept for callers that expect a lite client.
 */
import {answerQuery, normalizeFacetFilters, type AlgoliaResponse, type QueryParams} from './engine/answer.ts';
import {LocalSearchEngine} from './engine/search.ts';
import {
  decodeRecords,
  decodeShard,
  headsFile,
  isShardManifest,
  chunkStarts,
  recordsFile,
  SHARD_DIR,
  sectionTable,
  shardKey,
  termsFile,
  type ShardManifest,
} from './engine/shards.ts';
import {tokenizeQuery, typosAllowed} from './engine/text.ts';

export interface LocalSearchClientOptions {
  /** URL of the local index file, e.g. `/search/local-index.json` (with the site's baseUrl). */
  indexUrl: string;
  /** Snippet length when a request does not name one. */
  snippetWords?: number;
  /** Injected in tests; defaults to the global fetch. */
  fetch?: (url: string) => Promise<{ok: boolean; status: number; json(): Promise<unknown>}>;
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
    this.name = 'RetryError';
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

/**
 * A sharded index (format 3) in the browser: fetches the terms files of the words typed and the
 * records of the hits asked for, each file once per page load (concurrent asks share a fetch).
 */
class ShardLoader {
  readonly engine: LocalSearchEngine;
  private readonly shards: Set<string>;
  private readonly heads: Set<string>;
  private readonly starts: number[];
  private readonly files = new Map<string, Promise<void>>();

  constructor(
    private readonly manifest: ShardManifest,
    private readonly dir: string,
    private readonly getJson: (url: string) => Promise<unknown>,
  ) {
    this.engine = new LocalSearchEngine(sectionTable(manifest));
    this.shards = new Set(manifest.shards);
    this.heads = new Set(manifest.heads);
    this.starts = chunkStarts(manifest);
  }

  private load(file: string, use: (json: unknown) => void): Promise<void> {
    let p = this.files.get(file);
    if (!p) {
      p = this.getJson(`${this.dir}${file}?v=${this.manifest.version}`).then(use);
      // A failed file is fetched again by the next search.
      p.catch(() => this.files.delete(file));
      this.files.set(file, p);
    }
    return p;
  }

  /** Fetches what answering `params` reads: the words' terms files, then the records of the hits. */
  async prepare(params: QueryParams): Promise<void> {
    const query = String(params.query ?? '').slice(0, 512);
    const words = tokenizeQuery(query).slice(0, 30);
    const prefixLast = !/\s$/.test(query);
    const wanted: Promise<void>[] = [];
    const addTerms = (json: unknown) => this.engine.addTerms(decodeShard(json));
    const terms = (key: string) => {
      if (this.shards.has(key)) wanted.push(this.load(termsFile(key), addTerms));
    };
    words.forEach((word, i) => {
      terms(shardKey(word));
      // One letter being typed: the headings of its most frequent words.
      if (Array.from(word).length === 1 && prefixLast && i === words.length - 1 && this.heads.has(word)) wanted.push(this.load(headsFile(word), addTerms));
    });
    await Promise.all(wanted);
    // A typo in the first two letters is looked up only as a transposition of them, and only
    // for a word the index does not hold as typed.
    wanted.length = 0;
    words.forEach((word, i) => {
      const chars = Array.from(word);
      if (chars.length >= 2 && typosAllowed(word) > 0 && !this.engine.knows(word, prefixLast && i === words.length - 1)) {
        terms(chars[1]! + chars[0]!);
      }
    });
    await Promise.all(wanted);
    const hitsPerPage = Math.max(0, Math.min(1000, Number(params.hitsPerPage ?? 20)));
    const page = Math.max(0, Number(params.page ?? 0));
    if (hitsPerPage === 0) return;
    const filters = normalizeFacetFilters(params.facetFilters);
    // Records change which record stands for a hit, and so the order (a section found to hold
    // the words only in different paragraphs moves down): until stable.
    for (let round = 0; round < 10; round++) {
      const sections = this.engine.topSections(query, filters, (page + 1) * hitsPerPage).slice(page * hitsPerPage);
      const missing = new Set(sections.filter((s) => !this.engine.hasRecords(s)).map((s) => this.chunkOf(s)));
      if (missing.size === 0) return;
      await Promise.all([...missing].map((c) => this.load(recordsFile(c), (json) => this.engine.addRecords(this.starts[c]!, decodeRecords(json)))));
    }
  }

  /** The records file holding a section (binary search in the chunk starts). */
  private chunkOf(section: number): number {
    let lo = 0;
    let hi = this.starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= section) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

export function createLocalSearchClient(options: LocalSearchClientOptions): LocalSearchClient {
  const doFetch = options.fetch ?? ((url: string) => fetch(url, {credentials: 'same-origin'}));
  let loading: Promise<LocalSearchEngine | ShardLoader> | null = null;
  // Shard files live in SHARD_DIR beside the index file.
  const dir = `${options.indexUrl.replace(/[?#].*$/, '').replace(/[^/]*$/, '')}${SHARD_DIR}/`;

  const getJson = async (url: string): Promise<unknown> => {
    let res;
    try {
      res = await doFetch(url);
    } catch (cause) {
      throw new RetryError(`Unreachable local search index ${url}: ${String(cause)}`);
    }
    if (!res.ok) throw new RetryError(`Local search index ${url} answered HTTP ${res.status}`);
    try {
      return await res.json();
    } catch (cause) {
      throw new RetryError(`Unreadable local search index ${url}: ${String(cause)}`);
    }
  };

  const load = (): Promise<LocalSearchEngine | ShardLoader> => {
    loading ??= (async () => {
      const json = await getJson(options.indexUrl);
      try {
        return isShardManifest(json) ? new ShardLoader(json, dir, getJson) : LocalSearchEngine.fromIndexFile(json);
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
    const source = await load();
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
