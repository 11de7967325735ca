/**
 * One Algolia API call at a time, with retries: p-retry with exponential backoff; `isRetryable`
 * decides (network failures, timeouts, 429, 5xx); 401/403 stop at once as an AuthError. Every
 * failure becomes one line naming the step (STEP_LABELS), never a request detail (so no key).
 */
import {algoliasearch} from 'algoliasearch';
import pRetry from 'p-retry';
import {AuthError, IndexerError, maskAndCut, PublishError} from '../../errors.ts';
import {
  DEFAULT_TASK_TIMEOUT_MS,
  MAX_RETRY_DELAY_MS,
  TASK_POLL_FIRST_MS,
  TASK_POLL_MAX_MS,
  type PublishEvent,
  type PublishOptions,
  type PublishStep,
} from './options.ts';

export type Client = ReturnType<typeof algoliasearch>;

/** Status of an Algolia API error, or undefined for network errors. */
export function statusOf(error: unknown): number | undefined {
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

/**
 * A short reason for one failed call, with no request details, and `secrets` (the write key)
 * masked before the server's message is cut: a server that echoes the key never shows any of it.
 */
export function describeError(error: unknown, secrets: readonly (string | undefined)[] = []): string {
  const e = error as {name?: string; message?: string; stackTrace?: {response?: {status?: number; isTimedOut?: boolean}}[]};
  if (e?.name === 'RetryError') {
    const last = e.stackTrace?.at(-1)?.response;
    if (!last) return 'no host reachable';
    if (last.isTimedOut) return 'timed out';
    if (!last.status) return 'connection failed';
    return `HTTP ${last.status}`;
  }
  const status = statusOf(error);
  if (status !== undefined) return `HTTP ${status}${e.message ? ` (${maskAndCut(e.message.split('\n')[0] ?? '', secrets, 120)})` : ''}`;
  return maskAndCut((e?.message ?? String(error)).split('\n')[0] ?? 'unknown error', secrets, 160);
}

export const STEP_LABELS: Record<PublishStep, string> = {
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

/** What is wrong with a settings answer, or undefined when it is an object (with an object or no `userData`). */
export function settingsProblem(answer: unknown): string | undefined {
  if (answer === null) return 'null';
  if (Array.isArray(answer)) return 'a list';
  if (typeof answer !== 'object') return `a ${typeof answer}`;
  const userData = (answer as Record<string, unknown>).userData;
  if (userData !== undefined && userData !== null && (typeof userData !== 'object' || Array.isArray(userData))) return '"userData" is not an object';
  return undefined;
}

/** The calls of one run: its client, and each call retried as its options say. */
export type Calls = ReturnType<typeof createCalls>;

export function createCalls(options: PublishOptions, emit: (event: PublishEvent) => void) {
  const attempts = options.attempts ?? 4;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const secrets = [options.apiKey];
  /** describeError with this run's key masked. */
  const describe = (error: unknown): string => describeError(error, secrets);
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
   * `promise`, or a PublishError('interrupted') as soon as the run's signal fires: a request in
   * flight (up to `timeoutMs`) must not hold an interrupted run. The request itself is left to
   * end on its own; its answer is ignored.
   */
  const unlessAborted = <T>(promise: Promise<T>): Promise<T> => {
    const signal = options.signal;
    if (!signal) return promise;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(new PublishError('interrupted'));
      if (signal.aborted) {
        onAbort();
        promise.catch(() => {});
        return;
      }
      signal.addEventListener('abort', onAbort, {once: true});
      promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  };

  /** Waits `ms`, or rejects with PublishError('interrupted') as soon as the run's signal fires. */
  const pause = (ms: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) {
        reject(new PublishError('interrupted'));
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new PublishError('interrupted'));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, {once: true});
    });

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
          return await (abortable ? unlessAborted(call()) : call());
        },
        {
          retries: attempts - 1,
          // The waits between attempts end at once on an interruption, too.
          ...(abortable && options.signal ? {signal: options.signal} : {}),
          factor: 2,
          minTimeout: retryDelayMs,
          maxTimeout: Math.max(MAX_RETRY_DELAY_MS, retryDelayMs),
          randomize: false,
          shouldRetry: ({error}) => isRetryable(error),
          onFailedAttempt: ({error, attemptNumber, retriesLeft}) => {
            if (retriesLeft > 0 && isRetryable(error)) {
              emit({type: 'retry', step, attempt: attemptNumber, error: describe(error), delayMs: Math.min(retryDelayMs * 2 ** (attemptNumber - 1), Math.max(MAX_RETRY_DELAY_MS, retryDelayMs))});
            }
          },
        },
      );
    } catch (error) {
      // An interruption during a call or a wait between attempts (p-retry rejects with the signal's reason).
      if (abortable && options.signal?.aborted) throw new PublishError('interrupted');
      if (isAuthFailure(error)) {
        throw new AuthError(
          `Algolia rejected the credentials (HTTP ${statusOf(error)}) while ${STEP_LABELS[step]}: ` +
            'check ALGOLIA_APP_ID and ALGOLIA_ADMIN_API_KEY (the key needs write rights)',
        );
      }
      if (error instanceof IndexerError) throw error;
      const after = tries > 1 ? ` after ${tries} attempts` : '';
      throw new PublishError(`${STEP_LABELS[step]} failed${after}: ${describe(error)}`, {cause: error});
    }
  };

  const taskTimeoutMs = options.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
  /**
   * Waits until Algolia has published task `taskID`: polled (each poll a call with its retries)
   * after TASK_POLL_FIRST_MS, the delay growing by half each time up to TASK_POLL_MAX_MS, until
   * `taskTimeoutMs` (or `limitMs`) has passed: then a PublishError. An interruption ends the
   * wait at once. (The client's own waitForTask has no deadline and cannot be interrupted.)
   */
  const waitTask = async (step: PublishStep, indexName: string, taskID: number, {limitMs = taskTimeoutMs}: {limitMs?: number} = {}): Promise<void> => {
    const started = Date.now();
    let delay = TASK_POLL_FIRST_MS;
    for (;;) {
      const task: unknown = await withRetries(step, () => client.getTask({indexName, taskID}));
      if ((task as {status?: unknown} | null)?.status === 'published') return;
      const left = started + limitMs - Date.now();
      if (left <= 0) {
        throw new PublishError(
          `${STEP_LABELS[step]} failed: Algolia had not finished task ${taskID} after ${Math.round(limitMs / 100) / 10} s ` +
            `(DOCS_INDEXER_TASK_TIMEOUT_MS, default ${DEFAULT_TASK_TIMEOUT_MS / 1000} s)`,
        );
      }
      await pause(Math.min(delay, left));
      delay = Math.min(Math.round(delay * 1.5), TASK_POLL_MAX_MS);
    }
  };

  /**
   * An index's settings, or undefined when it does not exist. An answer that is not a settings
   * object (`null`, a list, a string) is reported as what it is, before anything is written: it
   * must not pass for an index without a build mark (which reads as another publish's work).
   */
  const settingsOf = (step: PublishStep, indexName: string) =>
    withRetries(step, async (): Promise<Record<string, unknown> | undefined> => {
      let answer: unknown;
      try {
        answer = await client.getSettings({indexName});
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
      const problem = settingsProblem(answer);
      if (problem) throw new PublishError(`${STEP_LABELS[step]} failed: Algolia's answer is not index settings (${problem})`);
      return answer as Record<string, unknown>;
    });


  return {client, checkAborted, withRetries, waitTask, settingsOf, describe};
}
