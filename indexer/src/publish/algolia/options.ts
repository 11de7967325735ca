/**
 * What a publish to Algolia is given (PublishOptions, checked against SETTING_RANGES and the
 * index name rule) and what it reports (PublishEvent, PublishResult). The CLI builds these
 * options from flags and the environment (cli/options.ts); nothing here depends on the CLI.
 */
import type {Synonym} from 'docs-search';
import type {IndexSettings} from './settings.ts';

/** An Algolia host the client talks to instead of Algolia's own (ALGOLIA_HOSTS). */
export interface AlgoliaHost {
  url: string;
  port?: number;
  protocol: 'http' | 'https';
  accept: 'readWrite';
}

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
  /**
   * How long to wait for Algolia to publish one task (a copy, a batch, a move) before giving up,
   * in ms (default DEFAULT_TASK_TIMEOUT_MS): the task is polled with backoff until then.
   */
  taskTimeoutMs?: number;
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
  /**
   * No record may be larger than this, in bytes of JSON (default 10,000, Algolia's limit on most
   * plans): checked before the first request, a larger one is a UsageError and nothing is sent.
   */
  maxRecordBytes?: number;
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
 * Ranges of the numeric settings (DOCS_INDEXER_TIMEOUT_MS, DOCS_INDEXER_TASK_TIMEOUT_MS,
 * DOCS_INDEXER_RETRY_DELAY_MS, DOCS_INDEXER_ATTEMPTS; the same options of publishToAlgolia): Node runs a timer above
 * 2^31 - 1 ms after 1 ms, so no delay may get near that, and a run must end in bounded time.
 * A retry waits `retryDelayMs` doubled at each attempt, at most MAX_RETRY_DELAY_MS.
 */
export const SETTING_RANGES = {
  timeoutMs: {min: 1, max: 600_000},
  taskTimeoutMs: {min: 1, max: 3_600_000},
  retryDelayMs: {min: 0, max: 60_000},
  attempts: {min: 1, max: 20},
} as const;
export const MAX_RETRY_DELAY_MS = 60_000;

/**
 * The wait for one Algolia task (DOCS_INDEXER_TASK_TIMEOUT_MS): Algolia publishes a batch of
 * 1,000 records in seconds, and the deploy workflow's index job is cut after 15 minutes, so a
 * task still pending after 10 minutes is stuck, and the run ends (its temporary index deleted).
 */
export const DEFAULT_TASK_TIMEOUT_MS = 600_000;
/** A task is polled after TASK_POLL_FIRST_MS, the delay growing by half each time up to TASK_POLL_MAX_MS. */
export const TASK_POLL_FIRST_MS = 100;
export const TASK_POLL_MAX_MS = 5_000;

/** Why a numeric setting is out of its range (SETTING_RANGES), or undefined. */
export function settingProblem(name: keyof typeof SETTING_RANGES, value: number | undefined): string | undefined {
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

