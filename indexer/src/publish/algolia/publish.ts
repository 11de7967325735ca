/**
 * Publish stage: records → Algolia, atomically and minimally, safe against concurrent runs.
 *
 * Readers see the old index or the new one, never a mix: every write goes to a temporary index
 * that is then moved over the live one (a move is atomic on Algolia's side). Any failure before
 * the move deletes the temporary index and leaves the live index as it was.
 *
 * Minimal by default: when the live index exists, it is browsed and compared with the new
 * records by objectID and content. When nothing differs (records and the settings we manage),
 * nothing is written at all, so a rerun converges. Otherwise the temporary index starts as a
 * server-side copy of the live one, and the copy is browsed and diffed again: the operations
 * sent are the difference with the copy they apply to, not with what was read earlier (another
 * run may have moved its own build over the live index in between). `full` rebuilds the
 * temporary index from every record (keeping the live index's synonyms and rules).
 *
 * Concurrent runs: each run marks its temporary index's settings with its own name
 * (`userData.docsIndexerBuild`), so the live index's settings say which build is live. Before the
 * move a run checks that the live index still holds the build its copy was made from; if another
 * run published in between, it deletes its temporary index and stops with a ConflictError
 * (exit code 3), leaving the other run's complete build live. After the move it checks that its
 * own build is live (a ConflictError too if another run's move came right after). The check and
 * the move are two requests, so two runs checking at the same instant both move: the last one
 * wins, still one build's complete records. The deploy workflow's concurrency group keeps its
 * runs from overlapping at all.
 *
 * Leftovers: temporary indices of this live index older than STALE_TEMP_INDEX_MS (from runs that
 * were killed) are deleted at the start of every run that may write.
 *
 * Retries: p-retry with exponential backoff; `isRetryable` decides (network failures, timeouts,
 * 429, 5xx); 401/403 stop at once.
 *
 * Memory stays flat on big sites: the diff reads each page's objectIDs and content hashes from
 * the RecordStore (made by the crawl's workers when it was asked for digests, without unpacking
 * the records), the live index is kept as typed arrays, and only the batches walk the records,
 * a page at a time.
 */
import {algoliasearch} from 'algoliasearch';
import pRetry from 'p-retry';
import {AuthError, ConflictError, IndexerError, PublishError, SourceError, UsageError} from '../../errors.ts';
import {findInvalidRecord, type SearchRecord} from 'docs-search/record';
import {CONTENT_HASH_BYTES, sameContentHash, writeContentHash} from '../../records/content-hash.ts';
import {RecordStore} from '../../records/store.ts';
import {DOCSEARCH_SETTINGS, settingsMatch, type IndexSettings} from './settings.ts';
import {planSynonyms, synonymsUnchanged, type SynonymPlan} from './synonyms.ts';
import type {Synonym} from 'docs-search';
import type {AlgoliaHost} from '../../cli/options.ts';

type Client = ReturnType<typeof algoliasearch>;

export type PublishStep =
  | 'check'
  | 'leftovers'
  | 'browse'
  | 'copy'
  | 'verify'
  | 'settings'
  | 'synonyms'
  | 'batch'
  | 'race'
  | 'move'
  | 'confirm'
  | 'cleanup';

export type PublishEvent =
  | {type: 'step'; step: PublishStep; index: string}
  | {type: 'retry'; step: PublishStep; attempt: number; error: string; delayMs: number}
  | {type: 'batch'; sent: number; total: number}
  /** A temporary index left by an earlier run (older than STALE_TEMP_INDEX_MS) was deleted. */
  | {type: 'leftover'; index: string}
  /** Something that did not stop the publish (e.g. leftovers could not be listed). */
  | {type: 'warning'; message: string}
  /** Records sharing an objectID: every repeat after the first got `-2`, `-3`… appended, in crawl order. */
  | {type: 'duplicates'; renamed: number; example: string};

export interface PublishOptions {
  appId: string;
  /** Key with write rights. Never part of an error or event. */
  apiKey: string;
  indexName: string;
  /** When set, the client talks only to these hosts (ALGOLIA_HOSTS). */
  hosts?: AlgoliaHost[];
  /** Send every record instead of the difference with the live index. */
  full?: boolean;
  /** Compute and report the changes, write nothing. */
  dryRun?: boolean;
  /** Per-request timeout in ms (default 30000). */
  timeoutMs?: number;
  /** First retry delay in ms, doubled on each attempt (default 1000). */
  retryDelayMs?: number;
  /** Attempts per API call (default 4). */
  attempts?: number;
  /** Settings to set (default: DocSearch's Docusaurus template with `_` as separator). */
  settings?: IndexSettings;
  /**
   * The index's synonyms (the whole set: others on the index are removed), diffed and written
   * with the records; undefined: the index's synonyms are left as they are.
   */
  synonyms?: readonly Synonym[];
  /** Stops the run between steps (e.g. on Ctrl-C); the temporary index is deleted. */
  signal?: AbortSignal;
  onEvent?: (event: PublishEvent) => void;
  /** Records per batch call (default 1000). */
  batchSize?: number;
  /** Temporary indices of earlier runs older than this are deleted (default STALE_TEMP_INDEX_MS). */
  staleTempIndexMs?: number;
}

/**
 * Age after which a temporary index of this live index is a crash leftover: far above a real
 * run (the deploy workflow's index job times out after 15 minutes), so a run still going is
 * never touched.
 */
export const STALE_TEMP_INDEX_MS = 60 * 60 * 1000;

/**
 * Ranges of the numeric settings (DOCS_INDEXER_TIMEOUT_MS, DOCS_INDEXER_RETRY_DELAY_MS,
 * DOCS_INDEXER_ATTEMPTS; the same options of publishToAlgolia): Node runs a timer above
 * 2^31 - 1 ms after 1 ms, so no delay may get near that, and a run must end in bounded time.
 * A retry waits `retryDelayMs` doubled at each attempt, at most MAX_RETRY_DELAY_MS.
 */
export const SETTING_RANGES = {
  timeoutMs: {min: 1, max: 600_000},
  retryDelayMs: {min: 0, max: 60_000},
  attempts: {min: 1, max: 20},
} as const;
export const MAX_RETRY_DELAY_MS = 60_000;

/** Why a numeric setting is out of its range (SETTING_RANGES), or undefined. */
function settingProblem(name: keyof typeof SETTING_RANGES, value: number | undefined): string | undefined {
  if (value === undefined) return undefined;
  const {min, max} = SETTING_RANGES[name];
  return Number.isInteger(value) && value >= min && value <= max ? undefined : `${name} must be a whole number from ${min} to ${max} (got ${value})`;
}

/** The `userData` key of an index's settings naming the run whose build it holds. */
export const BUILD_MARK = 'docsIndexerBuild';

/**
 * Longest live index name accepted. Algolia documents no rule we could find beyond names being
 * part of request paths; this leaves room for the `_tmp_…` suffix (17 characters) under 256.
 */
export const MAX_INDEX_NAME_LENGTH = 200;

/**
 * Why `name` cannot be a live index name, or undefined when it can: 1 to MAX_INDEX_NAME_LENGTH
 * characters among letters, digits, `_`, `-` and `.` (stricter than Algolia: no `*`, which its
 * API reads as "every index", no `/`, `?`, `#`, `%`, spaces or control characters, which break
 * or change request paths).
 */
export function indexNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  if (name.length > MAX_INDEX_NAME_LENGTH) return `it has ${name.length} characters (at most ${MAX_INDEX_NAME_LENGTH})`;
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) return 'use only letters, digits, "_", "-" and "."';
  if (name === '.' || name === '..') return 'it is a path segment';
  return undefined;
}

export interface RecordChange {
  objectID: string;
  url: string;
}

export interface PublishResult {
  added: number;
  updated: number;
  deleted: number;
  unchanged: number;
  /** Bytes of record operations sent (or that would be sent, in a dry run). */
  bytes: number;
  /** The live index existed before the run. */
  liveExisted: boolean;
  /** Our settings differed from the live index's (or it did not exist). */
  settingsChanged: boolean;
  /** Nothing was written: dry run, or the live index already matched. */
  wrote: boolean;
  /** Records whose objectID repeated an earlier one's and got a suffix. */
  renamed: number;
  /** With `synonyms`: how many were (or would be) saved and removed, and how many were the same. */
  synonyms?: {saved: number; removed: number; unchanged: number};
  dryRun: boolean;
  /** Each change, in crawl order (deletions in live order). Read back from the records on first access. */
  readonly changes: {add: RecordChange[]; update: RecordChange[]; delete: RecordChange[]};
}

/** Status of an Algolia API error, or undefined for network errors. */
function statusOf(error: unknown): number | undefined {
  const status = (error as {status?: unknown})?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Worth another attempt: network failures, timeouts, 429 and 5xx. Never 4xx (bad key, bad request). */
export function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  if (status === undefined) return !(error instanceof IndexerError);
  return status === 429 || status >= 500;
}

export function isAuthFailure(error: unknown): boolean {
  const status = statusOf(error);
  return status === 401 || status === 403;
}

/** A short reason for one failed call, with no request details (so no key). */
export function describeError(error: unknown): string {
  const e = error as {name?: string; message?: string; stackTrace?: {response?: {status?: number; isTimedOut?: boolean}}[]};
  if (e?.name === 'RetryError') {
    const last = e.stackTrace?.at(-1)?.response;
    if (!last) return 'no host reachable';
    if (last.isTimedOut) return 'timed out';
    if (!last.status) return 'connection failed';
    return `HTTP ${last.status}`;
  }
  const status = statusOf(error);
  if (status !== undefined) return `HTTP ${status}${e.message ? ` (${e.message.split('\n')[0]?.slice(0, 120)})` : ''}`;
  return (e?.message ?? String(error)).split('\n')[0]?.slice(0, 160) ?? 'unknown error';
}

const STEP_LABELS: Record<PublishStep, string> = {
  check: 'reading the live index settings',
  leftovers: 'removing temporary indices left by earlier runs',
  browse: 'reading the live index records',
  copy: 'copying the live index',
  verify: 'reading the copy of the live index',
  settings: 'setting the index settings',
  synonyms: 'reading or writing the index synonyms',
  batch: 'sending records',
  race: 'checking which build is live',
  move: 'moving the temporary index over the live one',
  confirm: 'checking which build is live',
  cleanup: 'deleting the temporary index',
};

/**
 * The live index as the diff needs it: per objectID, 96 bits of its content hash and its URL.
 * Kept in typed arrays (a slot per record) rather than a string per hash: 320,000 live records
 * took 75 MB of heap as two maps of strings.
 */
class LiveRecords {
  private readonly slots = new Map<string, number>();
  private hashes = new Uint8Array(CONTENT_HASH_BYTES * 1024);
  private urlIds = new Uint32Array(1024);
  /** One string per URL: the records of a section share it. */
  private readonly urls: string[] = [];
  private readonly urlIdOf = new Map<string, number>();

  get size(): number {
    return this.slots.size;
  }

  add(objectID: string, record: unknown, url: string): void {
    let slot = this.slots.get(objectID);
    if (slot === undefined) {
      slot = this.slots.size;
      this.slots.set(objectID, slot);
      if (slot >= this.urlIds.length) {
        const urlIds = new Uint32Array(this.urlIds.length * 2);
        urlIds.set(this.urlIds);
        this.urlIds = urlIds;
        const hashes = new Uint8Array(this.hashes.length * 2);
        hashes.set(this.hashes);
        this.hashes = hashes;
      }
    }
    writeContentHash(record, this.hashes, slot * CONTENT_HASH_BYTES);
    let urlId = this.urlIdOf.get(url);
    if (urlId === undefined) {
      urlId = this.urls.length;
      this.urls.push(url);
      this.urlIdOf.set(url, urlId);
    }
    this.urlIds[slot] = urlId;
  }

  /** Removes `objectID`; its slot, or -1 when the live index does not have it. */
  take(objectID: string): number {
    const slot = this.slots.get(objectID);
    if (slot === undefined) return -1;
    this.slots.delete(objectID);
    return slot;
  }

  /** Whether the live record in `slot` has the content hash at `hashes[offset…]`. */
  sameContent(slot: number, hashes: Uint8Array, offset: number): boolean {
    return sameContentHash(this.hashes, slot * CONTENT_HASH_BYTES, hashes, offset);
  }

  /** The records not taken: what the new records no longer have. */
  *remaining(): Generator<RecordChange> {
    for (const [objectID, slot] of this.slots) yield {objectID, url: this.urls[this.urlIds[slot] as number] ?? ''};
  }
}

/** Records asked for per browse request (Algolia's maximum). */
const BROWSE_PAGE_SIZE = 1000;
/** Pages a browse may take beyond what its first answer's `nbHits` needs (records added meanwhile). */
const BROWSE_EXTRA_PAGES = 10;
/** Pages of 1,000 indices read when looking for leftovers (Algolia plans allow far fewer indices). */
const MAX_LIST_PAGES = 100;
/** The size assumed when a browse answer gives no `nbHits`: far above any docs site. */
const MAX_BROWSE_RECORDS = 10_000_000;

/** What is wrong with a browse answer, or undefined when it has the shape of one. */
export function browsePageProblem(page: unknown): string | undefined {
  if (typeof page !== 'object' || page === null) return 'no object';
  const {hits, nbHits, cursor} = page as Record<string, unknown>;
  if (!Array.isArray(hits)) return '"hits" is not a list';
  if (hits.some((hit) => typeof hit !== 'object' || hit === null || typeof (hit as Record<string, unknown>).objectID !== 'string')) {
    return 'a hit has no objectID';
  }
  if (nbHits !== undefined && !(Number.isSafeInteger(nbHits) && (nbHits as number) >= 0)) return '"nbHits" is not a count';
  if (cursor !== undefined && typeof cursor !== 'string') return '"cursor" is not a string';
  return undefined;
}

/** A live hit as we stored it: Algolia's own `_…` attributes removed. */
function storedRecord(hit: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(hit)) if (!key.startsWith('_')) out[key] = value;
  return out;
}

/** `NAME_tmp_` + the run's start time (8 base-36 digits until 2059) + 4 random base-36 digits. */
export function tempIndexName(indexName: string, now = Date.now()): string {
  const random = Math.floor(Math.random() * 36 ** 4).toString(36).padStart(4, '0');
  return `${indexName}_tmp_${now.toString(36)}${random}`;
}

/** When the run that made `name`, a temporary index of `indexName`, started (ms); undefined for any other name. */
export function tempIndexStartedAt(name: string, indexName: string): number | undefined {
  const prefix = `${indexName}_tmp_`;
  if (!name.startsWith(prefix)) return undefined;
  const suffix = name.slice(prefix.length);
  if (!/^[0-9a-z]{12}$/.test(suffix)) return undefined;
  const startedAt = parseInt(suffix.slice(0, 8), 36);
  // Only times this tool can have written (2020 on): "docs_tmp_backup2024" is someone else's.
  return startedAt >= Date.UTC(2020, 0, 1) ? startedAt : undefined;
}

/** The run named in an index's settings, undefined when it carries no mark. */
function buildOf(settings: Record<string, unknown> | undefined): string | undefined {
  const mark = (settings?.userData as Record<string, unknown> | undefined)?.[BUILD_MARK];
  return typeof mark === 'string' ? mark : undefined;
}

/** Bytes an addObject operation adds around its record's JSON: `{"action":"addObject","body":…}`. */
const ADD_OPERATION_BYTES = Buffer.byteLength(JSON.stringify({action: 'addObject', body: {}})) - 2;

/** A record's objectID after duplicates were renamed. */
type Renames = ReadonlyMap<number, string>;

/**
 * ObjectIDs that repeat an earlier record's, by position: the nth record with an ID gets
 * `ID-n` (n ≥ 2), in store order, so every run names them the same way.
 */
function findRenames(store: RecordStore): {renames: Map<number, string>; pages: Set<number>} {
  const ids = new Set<string>();
  const renames = new Map<number, string>();
  const pages = new Set<number>();
  const repeats = new Map<string, number>();
  let position = 0;
  for (const page of store.digests({hashes: false})) {
    for (const id of page.ids) {
      if (ids.has(id)) {
        let n = repeats.get(id) ?? 1;
        let renamed: string;
        do renamed = `${id}-${++n}`;
        while (ids.has(renamed));
        repeats.set(id, n);
        ids.add(renamed);
        renames.set(position, renamed);
        pages.add(page.index);
      } else {
        ids.add(id);
      }
      position += 1;
    }
  }
  return {renames, pages};
}

/** The objectIDs and URLs of the records at two sets of ascending positions of `store`. */
function pick(store: RecordStore, renames: Renames, add: readonly number[], update: readonly number[]): {add: RecordChange[]; update: RecordChange[]} {
  const change = (positions: readonly number[]): RecordChange[] =>
    Array.from(store.recordsAt(positions), ([position, record]) => ({objectID: renames.get(position) ?? record.objectID, url: record.url}));
  return {add: change(add), update: change(update)};
}

type Operation = {action: 'addObject' | 'deleteObject'; body: Record<string, unknown>};

/** What a run sends: the result of comparing the records with an index's (or of sending them all). */
interface Plan {
  sendAll: boolean;
  added: number[];
  updated: number[];
  unchanged: number;
  deleted: RecordChange[];
  deletions: Operation[];
  bytes: number;
}

/**
 * Publishes `records` (an array, or the RecordStore of a crawl) to the live index `options.indexName`.
 */
export async function publishToAlgolia(records: readonly SearchRecord[] | RecordStore, options: PublishOptions): Promise<PublishResult> {
  const store = records instanceof RecordStore ? records : RecordStore.of(records);
  if (store.size === 0) throw new SourceError('refusing to publish an empty set of records');
  for (const name of ['timeoutMs', 'retryDelayMs', 'attempts'] as const) {
    const problem = settingProblem(name, options[name]);
    if (problem) throw new UsageError(problem);
  }
  const nameProblem = indexNameProblem(options.indexName);
  if (nameProblem) throw new UsageError(`invalid Algolia index name "${options.indexName.slice(0, 60)}": ${nameProblem}`);
  // A crawl's store was validated record by record as it was extracted.
  if (!store.validated) {
    let offset = 0;
    for (const page of store.pages()) {
      const invalid = findInvalidRecord(page);
      if (invalid) throw new UsageError(`invalid record at index ${offset + invalid.index}: ${invalid.message}`);
      offset += page.length;
    }
  }
  const emit = options.onEvent ?? (() => {});
  const {renames, pages: renamedPages} = findRenames(store);
  if (renames.size) {
    const [first] = renames.values();
    emit({type: 'duplicates', renamed: renames.size, example: first ?? ''});
  }

  const live = options.indexName;
  const attempts = options.attempts ?? 4;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const settings = options.settings ?? DOCSEARCH_SETTINGS;
  const client: Client = algoliasearch(options.appId, options.apiKey, {
    ...(options.hosts ? {hosts: options.hosts} : {}),
    timeouts: {connect: Math.min(timeoutMs, 5_000), read: timeoutMs, write: timeoutMs},
    // 429 is retried below with our own (configurable) backoff.
    maxRateLimitRetries: 0,
  });

  const checkAborted = (): void => {
    if (options.signal?.aborted) throw new PublishError('interrupted');
  };

  /**
   * Runs one API call with retries (p-retry: `attempts` in all, the delay doubling from
   * `retryDelayMs`); auth failures and other 4xx stop at once. `abortable: false` for the cleanup,
   * which still runs after an interruption.
   */
  const withRetries = async <T>(step: PublishStep, call: () => Promise<T>, {abortable = true}: {abortable?: boolean} = {}): Promise<T> => {
    let tries = 0;
    try {
      return await pRetry(
        async () => {
          if (abortable) checkAborted();
          tries += 1;
          return await call();
        },
        {
          retries: attempts - 1,
          factor: 2,
          minTimeout: retryDelayMs,
          maxTimeout: Math.max(MAX_RETRY_DELAY_MS, retryDelayMs),
          randomize: false,
          shouldRetry: ({error}) => isRetryable(error),
          onFailedAttempt: ({error, attemptNumber, retriesLeft}) => {
            if (retriesLeft > 0 && isRetryable(error)) {
              emit({type: 'retry', step, attempt: attemptNumber, error: describeError(error), delayMs: Math.min(retryDelayMs * 2 ** (attemptNumber - 1), Math.max(MAX_RETRY_DELAY_MS, retryDelayMs))});
            }
          },
        },
      );
    } catch (error) {
      if (isAuthFailure(error)) {
        throw new AuthError(
          `Algolia rejected the credentials (HTTP ${statusOf(error)}) while ${STEP_LABELS[step]}: ` +
            'check ALGOLIA_APP_ID and ALGOLIA_ADMIN_API_KEY (the key needs write rights)',
        );
      }
      if (error instanceof IndexerError) throw error;
      const after = tries > 1 ? ` after ${tries} attempts` : '';
      throw new PublishError(`${STEP_LABELS[step]} failed${after}: ${describeError(error)}`, {cause: error});
    }
  };

  const waitTask = (step: PublishStep, indexName: string, taskID: number) =>
    withRetries(step, () => client.waitForTask({indexName, taskID, maxRetries: 300, timeout: (n) => Math.min(50 + n * 100, 2_000)}));

  /** An index's settings, or undefined when it does not exist. */
  const settingsOf = (step: PublishStep, indexName: string) =>
    withRetries(step, async () => {
      try {
        return (await client.getSettings({indexName})) as Record<string, unknown>;
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
    });

  /** Which build the live index holds: a run's name, undefined when unmarked, null when there is no live index. */
  const liveBuild = async (step: PublishStep): Promise<string | null | undefined> => {
    const current = await settingsOf(step, live);
    return current === undefined ? null : buildOf(current);
  };

  /**
   * The live index's records, or its copy's, as the diff needs them. Bounded whatever the server
   * answers: every answer must have the shape of a browse page, a cursor already seen ends the
   * run, and so does a page past the index's size (its first answer's `nbHits`) plus
   * BROWSE_EXTRA_PAGES; each is a PublishError before anything was written.
   */
  const browseInto = async (step: PublishStep, indexName: string): Promise<LiveRecords> => {
    const into = new LiveRecords();
    const seen = new Set<string>();
    let maxPages = Number.POSITIVE_INFINITY;
    let size = 0;
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      if (pages >= maxPages) {
        throw new PublishError(
          `${STEP_LABELS[step]} failed: Algolia still gave a cursor after ${pages} pages, more than the index's ${size} records need (it would never end)`,
        );
      }
      const page: unknown = await withRetries(step, () =>
        client.browse<Record<string, unknown>>({
          indexName,
          browseParams: {hitsPerPage: BROWSE_PAGE_SIZE, attributesToRetrieve: ['*'], distinct: false, ...(cursor ? {cursor} : {})},
        }),
      );
      const problem = browsePageProblem(page);
      if (problem) throw new PublishError(`${STEP_LABELS[step]} failed: Algolia's answer is not a browse page (${problem})`);
      const {hits, nbHits, cursor: next} = page as {hits: Record<string, unknown>[]; nbHits?: number; cursor?: string};
      if (pages === 0) {
        size = nbHits ?? MAX_BROWSE_RECORDS;
        maxPages = Math.ceil(size / BROWSE_PAGE_SIZE) + BROWSE_EXTRA_PAGES;
      }
      for (const hit of hits) {
        const stored = storedRecord(hit);
        into.add(String(stored.objectID), stored, String(stored.url ?? ''));
      }
      if (next === undefined || next === '') return into;
      if (seen.has(next)) throw new PublishError(`${STEP_LABELS[step]} failed: Algolia answered a cursor it had already given (it would never end)`);
      seen.add(next);
      cursor = next;
    }
  };

  /** Deletes temporary indices of this live index left by runs that started more than the stale age ago. */
  const removeLeftovers = async (): Promise<void> => {
    const maxAge = options.staleTempIndexMs ?? STALE_TEMP_INDEX_MS;
    const now = Date.now();
    const stale: string[] = [];
    try {
      emit({type: 'step', step: 'leftovers', index: live});
      // Bounded: at most MAX_LIST_PAGES pages, and a page without items ends the listing.
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const list = await withRetries('leftovers', () => client.listIndices({page, hitsPerPage: 1000}));
        if (!Array.isArray(list?.items)) throw new Error('the answer is not a list of indices');
        if (list.items.length === 0) break;
        for (const item of list.items) {
          const startedAt = tempIndexStartedAt(item.name, live);
          const updatedAt = Date.parse(item.updatedAt);
          // Both the name's start time and the last write must be old: a slow run is never touched.
          if (startedAt !== undefined && now - startedAt > maxAge && !(now - updatedAt <= maxAge)) stale.push(item.name);
        }
        if (!list.nbPages || page + 1 >= list.nbPages) break;
      }
      for (const name of stale) {
        await withRetries('leftovers', () => client.deleteIndex({indexName: name}));
        emit({type: 'leftover', index: name});
      }
    } catch (error) {
      if (error instanceof PublishError && error.message === 'interrupted') throw error;
      // A key without the listIndexes right, or a flaky list: the publish itself can still go on.
      emit({type: 'warning', message: `could not remove temporary indices left by earlier runs (${error instanceof Error ? error.message : String(error)})`});
    }
  };

  /** An index's synonyms (every page of them). */
  const synonymsOf = (step: PublishStep, indexName: string) =>
    withRetries(step, async () => {
      const all: Record<string, unknown>[] = [];
      for (let page = 0; ; page++) {
        const found = await client.searchSynonyms({indexName, searchSynonymsParams: {query: '', page, hitsPerPage: 1000}});
        all.push(...(found.hits as unknown as Record<string, unknown>[]));
        if (found.hits.length < 1000) return all;
      }
    });
  let synonymPlan: SynonymPlan | null = null;
  const noteSynonyms = (plan: SynonymPlan): void => {
    synonymPlan = plan;
    result.synonyms = {saved: plan.save.length, removed: plan.removed.length, unchanged: plan.unchanged};
  };
  const synonymsSame = (): boolean => synonymPlan === null || synonymsUnchanged(synonymPlan);

  // 1. What is live now?
  emit({type: 'step', step: 'check', index: live});
  let liveSettings: Record<string, unknown> | undefined;
  try {
    liveSettings = await settingsOf('check', live);
  } catch (error) {
    throw liveUntouched(error, live);
  }
  const liveExisted = liveSettings !== undefined;
  const settingsChanged = !liveSettings || !settingsMatch(liveSettings, settings as Record<string, unknown>);
  if (!options.dryRun) {
    try {
      await removeLeftovers();
    } catch (error) {
      throw liveUntouched(error, live); // only an interruption gets here
    }
  }

  /** Compares the records with an index's (`undefined`: none, everything is sent). */
  const planAgainst = (index: LiveRecords | undefined): Plan => {
    const sendAll = Boolean(options.full) || index === undefined;
    const against = index ?? new LiveRecords();
    const added: number[] = [];
    const updated: number[] = [];
    let unchanged = 0;
    let bytes = 0;
    const addBytes = (op: Operation): void => {
      bytes += Buffer.byteLength(JSON.stringify(op));
    };
    let position = 0;
    for (const page of store.digests()) {
      const count = page.ids.length;
      let hashes = page.hashes;
      if (renamedPages.has(page.index)) {
        // A renamed record's hash is the hash of the record as sent, with its new objectID.
        hashes = hashes.slice();
        const records = store.page(page.index);
        for (let i = 0; i < count; i++) {
          const renamed = renames.get(position + i);
          if (renamed) writeContentHash({...records[i], objectID: renamed}, hashes, i * CONTENT_HASH_BYTES);
        }
      }
      // Every record of the page goes out and the size of its JSON is known: no need to serialize
      // each one (an operation is the record's JSON inside ADD_OPERATION_BYTES of wrapping).
      const sized = sendAll && page.jsonBytes !== undefined && count > 0 && !renamedPages.has(page.index);
      if (sized) bytes += (page.jsonBytes as number) - 2 - (count - 1) + count * ADD_OPERATION_BYTES;
      /** Positions within the page of the records sent whose size is still to be counted. */
      const unsized: number[] = [];
      for (let i = 0; i < count; i++) {
        const slot = against.take(renames.get(position + i) ?? (page.ids[i] as string));
        let send = sendAll;
        if (slot === -1) {
          added.push(position + i);
          send = true;
        } else if (!against.sameContent(slot, hashes, i * CONTENT_HASH_BYTES)) {
          updated.push(position + i);
          send = true;
        } else {
          unchanged += 1;
        }
        if (send && !sized) unsized.push(i);
      }
      if (unsized.length) {
        const records = store.page(page.index);
        for (const i of unsized) {
          const record = records[i] as SearchRecord;
          const renamed = renames.get(position + i);
          addBytes({action: 'addObject', body: renamed ? {...record, objectID: renamed} : record});
        }
      }
      position += count;
    }
    const deleted = [...against.remaining()];
    // A full rebuild starts from an empty index: deletions happen by omission.
    const deletions: Operation[] = !options.full && index ? deleted.map((change) => ({action: 'deleteObject', body: {objectID: change.objectID}})) : [];
    for (const op of deletions) addBytes(op);
    return {sendAll, added, updated, unchanged, deleted, deletions, bytes};
  };

  // 2. Diff against the live records.
  let plan: Plan;
  try {
    if (liveExisted) emit({type: 'step', step: 'browse', index: live});
    plan = planAgainst(liveExisted ? await browseInto('browse', live) : undefined);
  } catch (error) {
    throw liveUntouched(error, live);
  }

  let changes: PublishResult['changes'] | undefined;
  const result: PublishResult = {
    added: 0,
    updated: 0,
    deleted: 0,
    unchanged: 0,
    bytes: 0,
    liveExisted,
    settingsChanged,
    wrote: false,
    renamed: renames.size,
    dryRun: Boolean(options.dryRun),
    get changes() {
      changes ??= {...pick(store, renames, plan.added, plan.updated), delete: plan.deleted};
      return changes;
    },
  };
  const report = (from: Plan): void => {
    plan = from;
    changes = undefined;
    Object.assign(result, {added: from.added.length, updated: from.updated.length, deleted: from.deleted.length, unchanged: from.unchanged, bytes: from.bytes});
  };
  report(plan);
  const nothingIn = (p: Plan): boolean => p.added.length + p.updated.length + p.deleted.length === 0;
  if (options.synonyms) {
    try {
      noteSynonyms(planSynonyms(liveExisted ? await synonymsOf('synonyms', live) : [], options.synonyms, options.full));
    } catch (error) {
      throw liveUntouched(error, live);
    }
  }
  const nothingToDo = !options.full && liveExisted && !settingsChanged && nothingIn(plan) && synonymsSame();
  if (options.dryRun || nothingToDo) return result;

  // 3. Fill a temporary index, then move it over the live one.
  const tmp = tempIndexName(live);
  let tmpMayExist = false;
  /** The build the live index held when our copy was made (null: no live index). */
  let base: string | null | undefined = null;
  try {
    if (liveExisted) {
      emit({type: 'step', step: 'copy', index: tmp});
      tmpMayExist = true;
      // Minimal: start from the live records. Full: only keep synonyms and rules made elsewhere.
      const copy = await withRetries('copy', () =>
        client.operationIndex({
          indexName: live,
          operationIndexParams: {
            operation: 'copy',
            destination: tmp,
            ...(options.full ? {scope: ['settings', 'synonyms', 'rules'] as ('settings' | 'synonyms' | 'rules')[]} : {}),
          },
        }),
      );
      await waitTask('copy', tmp, copy.taskID);
      emit({type: 'step', step: 'verify', index: tmp});
      const copied = await settingsOf('verify', tmp);
      base = buildOf(copied);
      if (!options.full) {
        // The batches apply to the copy: their operations are its difference with the records,
        // whatever the live index held when it was read.
        report(planAgainst(await browseInto('verify', tmp)));
        if (options.synonyms) noteSynonyms(planSynonyms(await synonymsOf('verify', tmp), options.synonyms));
        if (nothingIn(plan) && copied && settingsMatch(copied, settings as Record<string, unknown>) && synonymsSame()) {
          // Another run published these very records in the meantime.
          await deleteTemporary(tmp);
          tmpMayExist = false;
          return result;
        }
      }
    }
    emit({type: 'step', step: 'settings', index: tmp});
    tmpMayExist = true;
    const userData = {...((liveSettings?.userData as Record<string, unknown> | undefined) ?? {}), [BUILD_MARK]: tmp};
    const set = await withRetries('settings', () => client.setSettings({indexName: tmp, indexSettings: {...settings, userData}}));
    await waitTask('settings', tmp, set.taskID);
    const synonyms = synonymPlan as SynonymPlan | null;
    if (synonyms && !synonymsUnchanged(synonyms)) {
      // Before the records, in the temporary index: moved over the live one with them.
      emit({type: 'step', step: 'synonyms', index: tmp});
      const saved = await withRetries('synonyms', () =>
        synonyms.replace && synonyms.save.length === 0
          ? client.clearSynonyms({indexName: tmp})
          : client.saveSynonyms({indexName: tmp, synonymHit: synonyms.save.map((s) => ({...s})), replaceExistingSynonyms: synonyms.replace}),
      );
      await waitTask('synonyms', tmp, saved.taskID);
    }

    emit({type: 'step', step: 'batch', index: tmp});
    const batchSize = options.batchSize ?? 1000;
    const operationCount = (plan.sendAll ? store.size : plan.added.length + plan.updated.length) + plan.deletions.length;
    const tasks: number[] = [];
    let sent = 0;
    let chunk: Operation[] = [];
    const sendChunk = async (): Promise<void> => {
      const requests = chunk;
      chunk = [];
      const response = await withRetries('batch', () => client.batch({indexName: tmp, batchWriteParams: {requests}}));
      tasks.push(response.taskID);
      sent += requests.length;
      emit({type: 'batch', sent, total: operationCount});
    };
    for (const op of operations(store, renames, plan)) {
      chunk.push(op);
      if (chunk.length >= batchSize) await sendChunk();
    }
    if (chunk.length) await sendChunk();
    for (const taskID of tasks) await waitTask('batch', tmp, taskID);

    // 4. Still the build our copy was made from? Otherwise another run published meanwhile:
    // its build stays live, complete, and this run says it lost.
    checkAborted();
    emit({type: 'step', step: 'race', index: live});
    const before = await liveBuild('race');
    if (before !== base) {
      throw new ConflictError(
        `another publish changed the live index "${live}" during this run (it now holds ${describeBuild(before)}); ` +
          `this run's records were not published: run it again`,
      );
    }

    emit({type: 'step', step: 'move', index: live});
    const move = await withRetries('move', async () => {
      try {
        return await client.operationIndex({indexName: tmp, operationIndexParams: {operation: 'move', destination: live}});
      } catch (error) {
        if (!isRetryable(error)) throw error;
        // The move may have happened even though its answer was lost: ask which build is live.
        let now: string | null | undefined;
        try {
          now = await liveBuild('confirm');
        } catch (checkError) {
          throw new PublishError(
            `${STEP_LABELS.move} failed (${describeError(error)}) and ${checkError instanceof Error ? checkError.message : String(checkError)}: ` +
              `the live index "${live}" may hold this run's records or the ones before; run it again to be sure`,
            {cause: error},
          );
        }
        if (now === tmp) return undefined;
        throw error; // not moved: try again
      }
    });
    tmpMayExist = false;
    let waitFailure: unknown;
    if (move) {
      try {
        await waitTask('move', live, move.taskID);
      } catch (error) {
        waitFailure = error;
      }
    }
    // 5. Ours live? A run whose check came just before ours can have moved right after.
    let after: string | null | undefined;
    try {
      after = await liveBuild('confirm');
    } catch (error) {
      throw new PublishError(
        `the move was accepted but ${error instanceof Error ? error.message : String(error)}: ` +
          `the live index "${live}" may hold this run's records or the ones before; run it again to be sure`,
        {cause: error},
      );
    }
    if (after !== tmp) {
      if (waitFailure) {
        throw new PublishError(
          `the move was accepted but ${waitFailure instanceof Error ? waitFailure.message : String(waitFailure)}; ` +
            `the live index "${live}" still holds ${describeBuild(after)}, not this run's records`,
          {cause: waitFailure},
        );
      }
      throw new ConflictError(
        `this run's records were moved to the live index "${live}", then another publish replaced them (it now holds ${describeBuild(after)}): run it again`,
      );
    }
    result.wrote = true;
    return result;
  } catch (error) {
    if (!tmpMayExist) throw error;
    let cleanup = '';
    try {
      await deleteTemporary(tmp);
    } catch {
      cleanup = `; the temporary index "${tmp}" could not be deleted: delete it in the Algolia dashboard`;
    }
    if (error instanceof ConflictError) throw new ConflictError(`${error.message}${cleanup}`, {cause: error});
    const base = error instanceof IndexerError ? error.message : describeError(error);
    const untouched = error instanceof PublishError && / may hold /.test(error.message) ? '' : `; the live index "${live}" was not changed`;
    const message = `${base}${untouched}${cleanup}`;
    throw error instanceof AuthError ? new AuthError(message, {cause: error}) : new PublishError(message, {cause: error});
  }

  async function deleteTemporary(name: string): Promise<void> {
    emit({type: 'step', step: 'cleanup', index: name});
    const deleted = await withRetries('cleanup', () => client.deleteIndex({indexName: name}), {abortable: false});
    await client.waitForTask({indexName: name, taskID: deleted.taskID, maxRetries: 50, timeout: () => 100}).catch(() => {});
  }
}

/** The operations in order (records in crawl order, then deletions), made a page at a time. */
function* operations(store: RecordStore, renames: Renames, plan: Plan): Generator<Operation> {
  const withId = (position: number, record: SearchRecord): Record<string, unknown> => {
    const renamed = renames.get(position);
    return renamed ? {...record, objectID: renamed} : record;
  };
  if (plan.sendAll) {
    let position = 0;
    for (const page of store.pages()) for (const record of page) yield {action: 'addObject', body: withId(position++, record)};
  } else {
    // Only the pages holding a changed record are unpacked.
    const changed = [...plan.added, ...plan.updated].sort((a, b) => a - b);
    for (const [position, record] of store.recordsAt(changed)) yield {action: 'addObject', body: withId(position, record)};
  }
  yield* plan.deletions;
}

function describeBuild(build: string | null | undefined): string {
  if (build === null) return 'no index';
  return build === undefined ? 'a build without a docs-indexer mark' : `the build of run "${build}"`;
}

/** Before any write: the live index cannot have changed. */
function liveUntouched(error: unknown, live: string): Error {
  if (error instanceof AuthError) return error;
  const message = `${error instanceof PublishError ? error.message : describeError(error)}; the live index "${live}" was not changed`;
  return new PublishError(message, {cause: error});
}
