/**
 * Publish stage: records → Algolia, atomically and minimally.
 *
 * Readers see the old index or the new one, never a mix: every write goes to a temporary index
 * that is then moved over the live one (a move is atomic on Algolia's side). Any failure deletes
 * the temporary index and leaves the live index as it was.
 *
 * Minimal by default: when the live index exists, it is browsed and compared with the new
 * records by objectID and content; the temporary index starts as a server-side copy of the live
 * one and receives only the additions, updates and deletions. When nothing differs (records and
 * the settings we manage), nothing is written at all, so a rerun converges. `full` rebuilds the
 * temporary index from every record (keeping the live index's synonyms and rules).
 *
 * Retries are data: `isRetryable` decides, `withRetries` records one entry per attempt.
 *
 * Memory stays flat on big sites: the diff reads each page's objectIDs and content hashes from
 * the RecordStore (made by the crawl's workers when it was asked for digests, without unpacking
 * the records), the live index is kept as typed arrays, and only the batches walk the records,
 * a page at a time.
 */
import {algoliasearch} from 'algoliasearch';
import {AuthError, PublishError, SourceError, UsageError} from '../../errors.ts';
import {findInvalidRecord, type SearchRecord} from 'docs-search/record';
import {CONTENT_HASH_BYTES, sameContentHash, writeContentHash} from '../../records/content-hash.ts';
import {RecordStore} from '../../records/store.ts';
import {DOCSEARCH_SETTINGS, settingsMatch, type IndexSettings} from './settings.ts';
import type {AlgoliaHost} from '../../cli/options.ts';

type Client = ReturnType<typeof algoliasearch>;

export type PublishStep = 'check' | 'browse' | 'copy' | 'settings' | 'batch' | 'move' | 'cleanup';

export type PublishEvent =
  | {type: 'step'; step: PublishStep; index: string}
  | {type: 'retry'; step: PublishStep; attempt: number; error: string; delayMs: number}
  | {type: 'batch'; sent: number; total: number};

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
  /** Stops the run between steps (e.g. on Ctrl-C); the temporary index is deleted. */
  signal?: AbortSignal;
  onEvent?: (event: PublishEvent) => void;
  /** Records per batch call (default 1000). */
  batchSize?: number;
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
  dryRun: boolean;
  /** Each change, in crawl order (deletions in live order). Read back from the records on first access. */
  readonly changes: {add: RecordChange[]; update: RecordChange[]; delete: RecordChange[]};
}

interface Attempt {
  attempt: number;
  error: string;
}

/** Status of an Algolia API error, or undefined for network errors. */
function statusOf(error: unknown): number | undefined {
  const status = (error as {status?: unknown})?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Worth another attempt: network failures, timeouts, 429 and 5xx. Never 4xx (bad key, bad request). */
export function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  if (status === undefined) return !(error instanceof PublishError || error instanceof AuthError || error instanceof UsageError);
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
  browse: 'reading the live index records',
  copy: 'copying the live index',
  settings: 'setting the index settings',
  batch: 'sending records',
  move: 'moving the temporary index over the live one',
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

/** A live hit as we stored it: Algolia's own `_…` attributes removed. */
function storedRecord(hit: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(hit)) if (!key.startsWith('_')) out[key] = value;
  return out;
}

export function tempIndexName(indexName: string): string {
  return `${indexName}_tmp_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Bytes an addObject operation adds around its record's JSON: `{"action":"addObject","body":…}`. */
const ADD_OPERATION_BYTES = Buffer.byteLength(JSON.stringify({action: 'addObject', body: {}})) - 2;

/** The objectIDs and URLs of the records at two sets of ascending positions of `store`. */
function pick(store: RecordStore, add: readonly number[], update: readonly number[]): {add: RecordChange[]; update: RecordChange[]} {
  const change = (positions: readonly number[]): RecordChange[] =>
    Array.from(store.recordsAt(positions), ([, record]) => ({objectID: record.objectID, url: record.url}));
  return {add: change(add), update: change(update)};
}

/**
 * Publishes `records` (an array, or the RecordStore of a crawl) to the live index `options.indexName`.
 */
export async function publishToAlgolia(records: readonly SearchRecord[] | RecordStore, options: PublishOptions): Promise<PublishResult> {
  const store = records instanceof RecordStore ? records : RecordStore.of(records);
  if (store.size === 0) throw new SourceError('refusing to publish an empty set of records');
  // A crawl's store was validated record by record as it was extracted.
  if (!store.validated) {
    let offset = 0;
    for (const page of store.pages()) {
      const invalid = findInvalidRecord(page);
      if (invalid) throw new UsageError(`invalid record at index ${offset + invalid.index}: ${invalid.message}`);
      offset += page.length;
    }
  }
  {
    const ids = new Set<string>();
    for (const page of store.digests({hashes: false})) {
      for (const id of page.ids) {
        if (ids.has(id)) {
          const record = store.page(page.index).find((r) => r.objectID === id);
          throw new UsageError(`two records share the objectID ${id} (${record?.url ?? 'unknown URL'})`);
        }
        ids.add(id);
      }
    }
  }

  const live = options.indexName;
  const attempts = options.attempts ?? 4;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const settings = options.settings ?? DOCSEARCH_SETTINGS;
  const emit = options.onEvent ?? (() => {});
  const client: Client = algoliasearch(options.appId, options.apiKey, {
    ...(options.hosts ? {hosts: options.hosts} : {}),
    timeouts: {connect: Math.min(timeoutMs, 5_000), read: timeoutMs, write: timeoutMs},
    // 429 is retried below with our own (configurable) backoff.
    maxRateLimitRetries: 0,
  });

  const checkAborted = (): void => {
    if (options.signal?.aborted) throw new PublishError('interrupted');
  };

  /** Runs one API call with retries; auth failures and other 4xx stop at once. */
  const withRetries = async <T>(step: PublishStep, call: () => Promise<T>): Promise<T> => {
    const history: Attempt[] = [];
    for (let attempt = 1; ; attempt++) {
      checkAborted();
      try {
        return await call();
      } catch (error) {
        history.push({attempt, error: describeError(error)});
        if (isAuthFailure(error)) {
          throw new AuthError(
            `Algolia rejected the credentials (HTTP ${statusOf(error)}) while ${STEP_LABELS[step]}: ` +
              'check ALGOLIA_APP_ID and ALGOLIA_ADMIN_API_KEY (the key needs write rights)',
          );
        }
        if (!isRetryable(error) || attempt >= attempts) {
          const tries = history.length > 1 ? ` after ${history.length} attempts` : '';
          throw new PublishError(`${STEP_LABELS[step]} failed${tries}: ${history.at(-1)?.error}`, {cause: error});
        }
        const delayMs = retryDelayMs * 2 ** (attempt - 1);
        emit({type: 'retry', step, attempt, error: history.at(-1)?.error ?? '', delayMs});
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  };

  const waitTask = (step: PublishStep, indexName: string, taskID: number) =>
    withRetries(step, () => client.waitForTask({indexName, taskID, maxRetries: 300, timeout: (n) => Math.min(50 + n * 100, 2_000)}));

  // 1. What is live now?
  emit({type: 'step', step: 'check', index: live});
  let liveSettings: Record<string, unknown> | undefined;
  try {
    liveSettings = await withRetries('check', async () => {
      try {
        return (await client.getSettings({indexName: live})) as Record<string, unknown>;
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
    });
  } catch (error) {
    throw liveUntouched(error, live);
  }
  const liveExisted = liveSettings !== undefined;
  const settingsChanged = !liveSettings || !settingsMatch(liveSettings, settings as Record<string, unknown>);

  // 2. Diff against the live records.
  const liveRecords = new LiveRecords();
  if (liveExisted) {
    emit({type: 'step', step: 'browse', index: live});
    try {
      let cursor: string | undefined;
      do {
        const page = await withRetries('browse', () =>
          client.browse<Record<string, unknown>>({
            indexName: live,
            browseParams: {hitsPerPage: 1000, attributesToRetrieve: ['*'], distinct: false, ...(cursor ? {cursor} : {})},
          }),
        );
        for (const hit of page.hits) {
          const stored = storedRecord(hit as Record<string, unknown>);
          liveRecords.add(String(stored.objectID), stored, String(stored.url ?? ''));
        }
        cursor = page.cursor;
      } while (cursor);
    } catch (error) {
      throw liveUntouched(error, live);
    }
  }
  // Which records go out: all of them (full, or no live index), else the changed ones. Changes
  // are kept as record positions (crawl order); their objectIDs and URLs are read back from the
  // store only if a caller asks for `changes` (a dry run lists them).
  const sendAll = Boolean(options.full) || !liveExisted;
  const added: number[] = [];
  const updated: number[] = [];
  let unchanged = 0;
  let bytes = 0;
  type Operation = {action: 'addObject' | 'deleteObject'; body: Record<string, unknown>};
  const addBytes = (op: Operation): void => {
    bytes += Buffer.byteLength(JSON.stringify(op));
  };
  let position = 0;
  for (const page of store.digests()) {
    const count = page.ids.length;
    // Every record of the page goes out and the size of its JSON is known: no need to serialize
    // each one (an operation is the record's JSON inside ADD_OPERATION_BYTES of wrapping).
    const sized = sendAll && page.jsonBytes !== undefined && count > 0;
    if (sized) bytes += (page.jsonBytes as number) - 2 - (count - 1) + count * ADD_OPERATION_BYTES;
    /** Positions within the page of the records sent whose size is still to be counted. */
    const unsized: number[] = [];
    for (let i = 0; i < count; i++) {
      const slot = liveRecords.take(page.ids[i] as string);
      let send = sendAll;
      if (slot === -1) {
        added.push(position + i);
        send = true;
      } else if (!liveRecords.sameContent(slot, page.hashes, i * CONTENT_HASH_BYTES)) {
        updated.push(position + i);
        send = true;
      } else {
        unchanged += 1;
      }
      if (send) {
        if (!sized) unsized.push(i);
      }
    }
    if (unsized.length) {
      const records = store.page(page.index);
      for (const i of unsized) addBytes({action: 'addObject', body: records[i] as SearchRecord});
    }
    position += count;
  }
  const deleted = [...liveRecords.remaining()];
  // A full rebuild starts from an empty index: deletions happen by omission.
  const deletions: Operation[] =
    !options.full || !liveExisted ? deleted.map((change) => ({action: 'deleteObject', body: {objectID: change.objectID}})) : [];
  for (const op of deletions) addBytes(op);
  const operationCount = (sendAll ? store.size : added.length + updated.length) + deletions.length;
  /** The operations in order (records in crawl order, then deletions), made a page at a time. */
  function* operations(): Generator<Operation> {
    if (sendAll) {
      for (const page of store.pages()) for (const record of page) yield {action: 'addObject', body: record};
    } else {
      // Only the pages holding a changed record are unpacked.
      const changed = [...added, ...updated].sort((a, b) => a - b);
      for (const [, record] of store.recordsAt(changed)) yield {action: 'addObject', body: record};
    }
    yield* deletions;
  }
  let changes: PublishResult['changes'] | undefined;
  const result: PublishResult = {
    added: added.length,
    updated: updated.length,
    deleted: deleted.length,
    unchanged,
    bytes,
    liveExisted,
    settingsChanged,
    wrote: false,
    dryRun: Boolean(options.dryRun),
    get changes() {
      changes ??= {...pick(store, added, updated), delete: deleted};
      return changes;
    },
  };
  const nothingToDo = !options.full && liveExisted && !settingsChanged && added.length + updated.length + deleted.length === 0;
  if (options.dryRun || nothingToDo) return result;

  // 3. Fill a temporary index, then move it over the live one.
  const tmp = tempIndexName(live);
  let tmpMayExist = false;
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
    }
    emit({type: 'step', step: 'settings', index: tmp});
    tmpMayExist = true;
    const set = await withRetries('settings', () => client.setSettings({indexName: tmp, indexSettings: settings}));
    await waitTask('settings', tmp, set.taskID);

    emit({type: 'step', step: 'batch', index: tmp});
    const batchSize = options.batchSize ?? 1000;
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
    for (const op of operations()) {
      chunk.push(op);
      if (chunk.length >= batchSize) await sendChunk();
    }
    if (chunk.length) await sendChunk();
    for (const taskID of tasks) await waitTask('batch', tmp, taskID);

    checkAborted();
    emit({type: 'step', step: 'move', index: live});
    const move = await withRetries('move', async () => {
      try {
        return await client.operationIndex({indexName: tmp, operationIndexParams: {operation: 'move', destination: live}});
      } catch (error) {
        // The move may have happened even though its response was lost: the temporary index is gone then.
        if (isRetryable(error) && !(await client.indexExists({indexName: tmp}))) return undefined;
        throw error;
      }
    });
    tmpMayExist = false;
    if (move) await waitTask('move', live, move.taskID);
    result.wrote = true;
    return result;
  } catch (error) {
    if (!tmpMayExist) throw error;
    let cleanup = '';
    try {
      emit({type: 'step', step: 'cleanup', index: tmp});
      const deleted = await withRetriesNoAbort(() => client.deleteIndex({indexName: tmp}), attempts, retryDelayMs);
      await client.waitForTask({indexName: tmp, taskID: deleted.taskID, maxRetries: 50, timeout: () => 100}).catch(() => {});
    } catch {
      cleanup = `; the temporary index "${tmp}" could not be deleted: delete it in the Algolia dashboard`;
    }
    const base = error instanceof AuthError || error instanceof PublishError ? error.message : describeError(error);
    const message = `${base}; the live index "${live}" was not changed${cleanup}`;
    throw error instanceof AuthError ? new AuthError(message, {cause: error}) : new PublishError(message, {cause: error});
  }
}

/** Before any write: the live index cannot have changed. */
function liveUntouched(error: unknown, live: string): Error {
  if (error instanceof AuthError) return error;
  const message = `${error instanceof PublishError ? error.message : describeError(error)}; the live index "${live}" was not changed`;
  return new PublishError(message, {cause: error});
}

/** Cleanup still runs after an interruption. */
async function withRetriesNoAbort<T>(call: () => Promise<T>, attempts: number, delayMs: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isRetryable(error) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * 2 ** (attempt - 1)));
    }
  }
}
