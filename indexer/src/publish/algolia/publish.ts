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
 *
 * This module runs the steps in order; each step is read in its own module: options.ts (what a
 * run is given and reports), calls.ts (one API call with retries), temp-index.ts (names, build
 * marks, leftovers), browse.ts (reading an index's records), diff.ts (what to send and delete,
 * and the operations), synonyms.ts (the synonyms step), batch.ts, move.ts (the move and the check
 * that follows it). The race check is below.
 */
import {AuthError, ConflictError, IndexerError, maskSecrets, PublishError, SourceError, UsageError} from '../../errors.ts';
import {findInvalidRecord, MAX_RECORD_BYTES, type SearchRecord} from 'docs-search/record';
import {MAX_MAX_RECORD_BYTES, MIN_MAX_RECORD_BYTES} from '../../records/limits.ts';
import {RecordStore} from '../../records/store.ts';
import {DOCSEARCH_SETTINGS, settingsMatch} from './settings.ts';
import {planSynonyms, readSynonyms, synonymsUnchanged, type SynonymPlan} from './synonyms.ts';
import {createCalls, describeError} from './calls.ts';
import {browseInto, type LiveRecords} from './browse.ts';
import {findRenames, operations, pick, planAgainst as planOf, type Plan} from './diff.ts';
import {buildOf, describeBuild, removeLeftovers, tempIndexName} from './temp-index.ts';
import {operationCountOf, sendBatches} from './batch.ts';
import {confirmLive, moveOver} from './move.ts';
import {
  BUILD_MARK,
  indexNameProblem,
  settingProblem,
  STALE_TEMP_INDEX_MS,
  type PublishEvent,
  type PublishOptions,
  type PublishResult,
  type PublishStep,
} from './options.ts';

// The library's names for the publish stage, from the modules that define them.
export {
  BUILD_MARK,
  DEFAULT_TASK_TIMEOUT_MS,
  indexNameProblem,
  MAX_INDEX_NAME_LENGTH,
  MAX_RETRY_DELAY_MS,
  SETTING_RANGES,
  STALE_TEMP_INDEX_MS,
  type AlgoliaHost,
  type PublishEvent,
  type PublishOptions,
  type PublishResult,
  type PublishStep,
  type RecordChange,
} from './options.ts';
export {describeError, isAuthFailure, isRetryable} from './calls.ts';
export {browsePageProblem} from './browse.ts';
export {tempIndexName, tempIndexStartedAt} from './temp-index.ts';

/**
 * Publishes `records` (an array, or the RecordStore of a crawl) to the live index `options.indexName`.
 */
export async function publishToAlgolia(records: readonly SearchRecord[] | RecordStore, options: PublishOptions): Promise<PublishResult> {
  // The write key never leaves in a message, whatever a server put in its answers: every event
  // and every error is masked here, as a last line behind describeError's own masking.
  const secrets = [options.apiKey];
  const onEvent = options.onEvent;
  const masked: PublishOptions = {
    ...options,
    ...(onEvent
      ? {
          onEvent: (event: PublishEvent): void => {
            if (event.type === 'warning') onEvent({...event, message: maskSecrets(event.message, secrets)});
            else if (event.type === 'retry') onEvent({...event, error: maskSecrets(event.error, secrets)});
            else if (event.type === 'duplicates') onEvent({...event, example: maskSecrets(event.example, secrets)});
            else onEvent(event);
          },
        }
      : {}),
  };
  try {
    return await publish(records, masked);
  } catch (error) {
    if (error instanceof Error) error.message = maskSecrets(error.message, secrets);
    throw error;
  }
}

async function publish(records: readonly SearchRecord[] | RecordStore, options: PublishOptions): Promise<PublishResult> {
  const store = records instanceof RecordStore ? records : RecordStore.of(records);
  if (store.size === 0) throw new SourceError('refusing to publish an empty set of records');
  for (const name of ['timeoutMs', 'taskTimeoutMs', 'retryDelayMs', 'attempts'] as const) {
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
  checkRecordSizes(store, options.maxRecordBytes ?? MAX_RECORD_BYTES);
  const emit = options.onEvent ?? (() => {});
  const renaming = findRenames(store);
  const {renames} = renaming;
  if (renames.size) {
    const [first] = renames.values();
    emit({type: 'duplicates', renamed: renames.size, example: first ?? ''});
  }

  const live = options.indexName;
  const settings = options.settings ?? DOCSEARCH_SETTINGS;
  const calls = createCalls(options, emit);
  const {client, checkAborted, withRetries, waitTask, settingsOf} = calls;

  /** Which build the live index holds: a run's name, undefined when unmarked, null when there is no live index. */
  const liveBuild = async (step: PublishStep): Promise<string | null | undefined> => {
    const current = await settingsOf(step, live);
    return current === undefined ? null : buildOf(current);
  };
  const browse = (step: PublishStep, indexName: string) => browseInto(calls, step, indexName);
  const synonymsOf = (step: PublishStep, indexName: string) => readSynonyms(calls, step, indexName);
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
    throw liveUntouched(error, live, options.apiKey);
  }
  const liveExisted = liveSettings !== undefined;
  const settingsChanged = !liveSettings || !settingsMatch(liveSettings, settings as Record<string, unknown>);
  if (!options.dryRun) {
    try {
      await removeLeftovers(calls, live, options.staleTempIndexMs ?? STALE_TEMP_INDEX_MS, emit);
    } catch (error) {
      throw liveUntouched(error, live, options.apiKey); // only an interruption gets here
    }
  }

  /** Compares the records with an index's (`undefined`: none, everything is sent). */
  const planAgainst = (index: LiveRecords | undefined): Plan => planOf(store, renaming, options.full, index);

  // 2. Diff against the live records.
  let plan: Plan;
  try {
    if (liveExisted) emit({type: 'step', step: 'browse', index: live});
    plan = planAgainst(liveExisted ? await browse('browse', live) : undefined);
  } catch (error) {
    throw liveUntouched(error, live, options.apiKey);
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
      throw liveUntouched(error, live, options.apiKey);
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
        report(planAgainst(await browse('verify', tmp)));
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
    await sendBatches(calls, tmp, operations(store, renames, plan), operationCountOf(store, plan), options.batchSize ?? 1000, emit);

    // 4. Still the build our copy was made from? Otherwise another run published meanwhile:
    // its build stays live, complete, and this run says it lost.
    checkAborted();
    emit({type: 'step', step: 'race', index: live});
    const before = await liveBuild('race');
    if (before === null && liveExisted) {
      // Not another publish: nothing holds a build now. A live index deleted on purpose is not
      // brought back behind the back of whoever deleted it.
      throw new PublishError(
        `the live index "${live}" was deleted during this run (it existed when the run started); ` +
          `this run's records were not published: run it again to publish them to a new index`,
      );
    }
    if (before !== base) {
      throw new ConflictError(
        `another publish changed the live index "${live}" during this run (it now holds ${describeBuild(before)}); ` +
          `this run's records were not published: run it again`,
      );
    }

    emit({type: 'step', step: 'move', index: live});
    const move = await moveOver(calls, tmp, live, liveBuild);
    tmpMayExist = false;
    await confirmLive(calls, tmp, live, move, liveBuild);
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
    const base = error instanceof IndexerError ? error.message : describeError(error, [options.apiKey]);
    const untouched = error instanceof PublishError && / may hold /.test(error.message) ? '' : `; the live index "${live}" was not changed`;
    const message = `${base}${untouched}${cleanup}`;
    throw error instanceof AuthError ? new AuthError(message, {cause: error}) : new PublishError(message, {cause: error});
  }

  async function deleteTemporary(name: string): Promise<void> {
    emit({type: 'step', step: 'cleanup', index: name});
    const deleted = await withRetries('cleanup', () => client.deleteIndex({indexName: name}), {abortable: false});
    // Algolia accepted the deletion; after an interruption the run ends without waiting for it.
    if (!options.signal?.aborted) await waitTask('cleanup', name, deleted.taskID, {limitMs: Math.min(5_000, options.taskTimeoutMs ?? 5_000)}).catch(() => {});
  }
}

/**
 * Before the first request: no record is larger than Algolia accepts (`maxRecordBytes`), else a
 * UsageError naming the first one. A crawl's store was made under a limit (the extractor's size
 * rule): when that limit is not above this one, nothing needs measuring.
 */
function checkRecordSizes(store: RecordStore, maxRecordBytes: number): void {
  if (!(Number.isInteger(maxRecordBytes) && maxRecordBytes >= MIN_MAX_RECORD_BYTES && maxRecordBytes <= MAX_MAX_RECORD_BYTES)) {
    throw new UsageError(`maxRecordBytes must be a whole number from ${MIN_MAX_RECORD_BYTES} to ${MAX_MAX_RECORD_BYTES} (got ${maxRecordBytes})`);
  }
  if (store.recordLimit !== undefined && store.recordLimit <= maxRecordBytes) return;
  for (const page of store.pages()) {
    for (const record of page) {
      const size = Buffer.byteLength(JSON.stringify(record));
      if (size > maxRecordBytes) {
        throw new UsageError(
          `record "${String(record.objectID).slice(0, 60)}" of ${String(record.url_without_anchor).slice(0, 200)} is ${size} bytes, ` +
            `more than the ${maxRecordBytes} bytes a record may have (--max-record-bytes); nothing was sent`,
        );
      }
    }
  }
}

/** Before any write: the live index cannot have changed. */
function liveUntouched(error: unknown, live: string, apiKey: string): Error {
  if (error instanceof AuthError) return error;
  const message = `${error instanceof PublishError ? error.message : describeError(error, [apiKey])}; the live index "${live}" was not changed`;
  return new PublishError(message, {cause: error});
}

