/**
 * Options in two steps: the CLI gathers a loose object from flags and the environment, one zod
 * parse turns it into complete options with defaults. Every message names each way to supply
 * the value (flag, environment variable).
 */
import {z} from 'zod';
import {UsageError} from '../errors.ts';
import {DEFAULT_CONCURRENCY, MAX_CONCURRENCY} from './defaults.ts';
import {DEFAULT_TASK_TIMEOUT_MS, indexNameProblem, SETTING_RANGES, type AlgoliaHost} from '../publish/algolia/options.ts';
import {DEFAULT_MAX_FAILED, DEFAULT_MAX_PAGES, MAX_MAX_PAGES} from '../crawl/defaults.ts';
import {DEFAULT_MAX_RECORD_BYTES, MAX_MAX_RECORD_BYTES, MIN_MAX_RECORD_BYTES} from '../records/limits.ts';
import {redactUrl} from '../crawl/urls.ts';

export {DEFAULT_CONCURRENCY, MAX_CONCURRENCY};

/** Raw values as commander and process.env give them. */
export interface RawCrawlOptions {
  source?: string;
  out?: string;
  baseUrl?: string;
  concurrency?: string | number;
  maxFailed?: string | number;
  maxPages?: string | number;
  maxRecordBytes?: string | number;
  json?: boolean;
}

export interface RawPushOptions extends RawCrawlOptions {
  index?: string;
  full?: boolean;
  dryRun?: boolean;
  synonyms?: string;
}

export type {AlgoliaHost};

const concurrencySchema = z.preprocess(
  (v) => (v === undefined ? DEFAULT_CONCURRENCY : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
  z.number().int().min(1).max(MAX_CONCURRENCY),
);

const baseUrlSchema = z
  .string()
  .refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  })
  .optional();

/**
 * A credential holding a line break or another control character (after trimming) is a pasting
 * mistake: every request would fail, so it is a configuration error, before any request.
 */
function hasNoControl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f]/.test(value);
}

/** `--max-failed`: a percentage, `10` or `10%`. */
const maxFailedSchema = z.preprocess(
  (v) => (v === undefined ? DEFAULT_MAX_FAILED : typeof v === 'string' && /^\s*\d+(\.\d+)?%?\s*$/.test(v) ? Number(v.trim().replace(/%$/, '')) : v),
  z.number().min(0).max(100),
);

/** A whole number from flags (`--max-pages 500`), with its default. */
const wholeNumber = (fallback: number, min: number, max: number) =>
  z.preprocess(
    (v) => (v === undefined ? fallback : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v.trim()) : v),
    z.number().int().min(min).max(max),
  );

export const crawlOptionsSchema = z.object({
  /** Build folder or http(s) URL. */
  source: z.string().min(1),
  /** Where the records go (JSON array); stdout when absent. */
  out: z.string().min(1).optional(),
  /** Makes record URLs absolute (default: the site's configured URL read from the build). */
  baseUrl: baseUrlSchema,
  /** Pages read or fetched at once. */
  concurrency: concurrencySchema,
  /** A URL crawl fails when more than this share of its pages (in %) could not be fetched. */
  maxFailed: maxFailedSchema,
  /** A URL crawl fetches at most this many pages. */
  maxPages: wholeNumber(DEFAULT_MAX_PAGES, 1, MAX_MAX_PAGES),
  /** No record is larger than this once serialised (bytes of JSON). */
  maxRecordBytes: wholeNumber(DEFAULT_MAX_RECORD_BYTES, MIN_MAX_RECORD_BYTES, MAX_MAX_RECORD_BYTES),
  /** Print one summary object on stdout. */
  json: z.boolean().default(false),
});
export type CrawlCommandOptions = z.infer<typeof crawlOptionsSchema>;

export const pushOptionsSchema = crawlOptionsSchema.omit({out: true}).extend({
  /** Algolia application ID (ALGOLIA_APP_ID). */
  appId: z.string().min(1).refine(hasNoControl),
  /** Algolia key with write rights (ALGOLIA_ADMIN_API_KEY). Never printed. */
  apiKey: z.string().min(1).refine(hasNoControl),
  /** Live index name (--index or ALGOLIA_INDEX_NAME). */
  indexName: z.string().min(1).refine((v) => indexNameProblem(v) === undefined),
  /** ALGOLIA_HOSTS: when set, the client talks only to these hosts. */
  hosts: z.array(z.custom<AlgoliaHost>()).optional(),
  /** Send every record instead of the difference with the live index. */
  full: z.boolean().default(false),
  /** Print what would change; write nothing. */
  dryRun: z.boolean().default(false),
  /** A synonyms file (--synonyms): the index's synonyms, replaced and diffed with the records. */
  synonyms: z.string().min(1).optional(),
  /** Per-request timeout for Algolia calls (DOCS_INDEXER_TIMEOUT_MS). */
  timeoutMs: z.number().int().min(SETTING_RANGES.timeoutMs.min).max(SETTING_RANGES.timeoutMs.max).default(30_000),
  /** How long one Algolia task may stay unpublished (DOCS_INDEXER_TASK_TIMEOUT_MS). */
  taskTimeoutMs: z.number().int().min(SETTING_RANGES.taskTimeoutMs.min).max(SETTING_RANGES.taskTimeoutMs.max).default(DEFAULT_TASK_TIMEOUT_MS),
  /** First retry delay; doubles on each attempt (DOCS_INDEXER_RETRY_DELAY_MS). */
  retryDelayMs: z.number().int().min(SETTING_RANGES.retryDelayMs.min).max(SETTING_RANGES.retryDelayMs.max).default(1_000),
  /** Attempts per Algolia call (DOCS_INDEXER_ATTEMPTS). */
  attempts: z.number().int().min(SETTING_RANGES.attempts.min).max(SETTING_RANGES.attempts.max).default(4),
});
export type PushCommandOptions = z.infer<typeof pushOptionsSchema>;

const range = (name: keyof typeof SETTING_RANGES): string => `${SETTING_RANGES[name].min} to ${SETTING_RANGES[name].max}`;

/** One message per field, naming every way to supply it. */
const MESSAGES: Record<string, (value: unknown) => string> = {
  source: () => 'missing SOURCE: pass a build folder or an http(s) URL, e.g. docs-indexer crawl site/build',
  out: () => '--out needs a file name',
  baseUrl: (v) => `--base-url must be an absolute http(s) URL such as https://example.com/ (got "${redactUrl(String(v))}")`,
  concurrency: (v) => `--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY} (got "${String(v)}")`,
  maxFailed: (v) => `--max-failed must be a percentage from 0 to 100, such as 10 or 10% (got "${String(v)}")`,
  maxPages: (v) => `--max-pages must be a whole number from 1 to ${MAX_MAX_PAGES} (got "${printable(String(v))}")`,
  maxRecordBytes: (v) =>
    `--max-record-bytes must be a whole number of bytes from ${MIN_MAX_RECORD_BYTES} to ${MAX_MAX_RECORD_BYTES} (got "${printable(String(v))}")`,
  appId: (v) =>
    v === undefined
      ? 'missing Algolia application ID: set ALGOLIA_APP_ID'
      : 'ALGOLIA_APP_ID contains a line break or another control character: set it to the application ID alone',
  // Never the key itself, not even in part.
  apiKey: (v) =>
    v === undefined
      ? 'missing Algolia write key: set ALGOLIA_ADMIN_API_KEY (a key with write rights)'
      : 'ALGOLIA_ADMIN_API_KEY contains a line break or another control character: set it to the key alone',
  indexName: (v) =>
    v === undefined
      ? 'missing Algolia index name: pass --index NAME or set ALGOLIA_INDEX_NAME'
      : `invalid Algolia index name "${printable(String(v))}" (--index or ALGOLIA_INDEX_NAME): ${indexNameProblem(String(v))}`,
  timeoutMs: (v) => `DOCS_INDEXER_TIMEOUT_MS must be a whole number of milliseconds from ${range('timeoutMs')} (got "${printable(String(v))}")`,
  taskTimeoutMs: (v) =>
    `DOCS_INDEXER_TASK_TIMEOUT_MS must be a whole number of milliseconds from ${range('taskTimeoutMs')} (got "${printable(String(v))}")`,
  retryDelayMs: (v) => `DOCS_INDEXER_RETRY_DELAY_MS must be a whole number of milliseconds from ${range('retryDelayMs')} (got "${printable(String(v))}")`,
  attempts: (v) => `DOCS_INDEXER_ATTEMPTS must be a whole number from ${range('attempts')} (got "${printable(String(v))}")`,
};

/** A value quoted in a message: control characters shown as `?`, at most 60 characters. */
function printable(value: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return clean.length > 60 ? `${clean.slice(0, 60)}…` : clean;
}

function parseWith<T extends z.ZodTypeAny>(schema: T, raw: Record<string, unknown>): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  const message = MESSAGES[field];
  throw new UsageError(message ? message(raw[field]) : `invalid option ${field}: ${issue?.message ?? ''}`);
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function resolveCrawlOptions(raw: RawCrawlOptions): CrawlCommandOptions {
  const options = parseWith(crawlOptionsSchema, {...raw});
  if (options.json && !options.out) {
    throw new UsageError('--json prints the summary on stdout: pass --out FILE for the records');
  }
  return options;
}

/** The variable that lets ALGOLIA_HOSTS name a plain-HTTP host off this machine (a trusted proxy). */
export const ALLOW_PLAIN_HTTP_VAR = 'DOCS_INDEXER_ALLOW_PLAIN_HTTP';

/** A host name that is this machine: `localhost`, 127.0.0.0/8, ::1. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1' || host === '0:0:0:0:0:0:0:1';
}

/**
 * ALGOLIA_HOSTS: comma-separated base URLs such as `http://127.0.0.1:8787`. Every request carries
 * the write key, so a plain `http:` host must be this machine (a local stand-in), unless
 * `allowPlainHttp` (DOCS_INDEXER_ALLOW_PLAIN_HTTP=1: a trusted proxy on a private network).
 */
export function parseHosts(value: string | undefined, allowPlainHttp = false): AlgoliaHost[] | undefined {
  const text = blankToUndefined(value);
  if (text === undefined) return undefined;
  return text.split(',').map((part) => {
    const item = part.trim();
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      url = new URL('invalid:');
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
      throw new UsageError(
        `ALGOLIA_HOSTS must be comma-separated http(s) base URLs such as http://127.0.0.1:8787 (got "${printable(redactUrl(item))}")`,
      );
    }
    // The Algolia client sends every request to the host's root: a path, query or user would be dropped silently.
    if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
      throw new UsageError(
        `ALGOLIA_HOSTS takes base URLs without a path, query or user name, such as http://127.0.0.1:8787: the Algolia client sends every request to the host's root ` +
          `(got "${printable(redactUrl(item))}")`,
      );
    }
    if (url.protocol === 'http:' && !allowPlainHttp && !isLoopback(url.hostname)) {
      throw new UsageError(
        `ALGOLIA_HOSTS names ${printable(redactUrl(`http://${url.host}`))}, a plain-HTTP host that is not this machine: the write key would cross the network unencrypted ` +
          `(use https://, or set ${ALLOW_PLAIN_HTTP_VAR}=1 for a trusted plain-HTTP proxy)`,
      );
    }
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    return {url: url.hostname, ...(url.port ? {port: Number(url.port)} : {}), protocol, accept: 'readWrite'};
  });
}

function numberFromEnv(value: string | undefined): number | string | undefined {
  const text = blankToUndefined(value);
  if (text === undefined) return undefined;
  return /^\d+$/.test(text) ? Number(text) : text;
}

export function resolvePushOptions(raw: RawPushOptions, env: NodeJS.ProcessEnv): PushCommandOptions {
  const {out: _out, ...rest} = raw;
  const merged = {
    ...rest,
    appId: blankToUndefined(env.ALGOLIA_APP_ID),
    apiKey: blankToUndefined(env.ALGOLIA_ADMIN_API_KEY),
    indexName: blankToUndefined(raw.index) ?? blankToUndefined(env.ALGOLIA_INDEX_NAME),
    hosts: parseHosts(env.ALGOLIA_HOSTS, env[ALLOW_PLAIN_HTTP_VAR]?.trim() === '1'),
    timeoutMs: numberFromEnv(env.DOCS_INDEXER_TIMEOUT_MS),
    taskTimeoutMs: numberFromEnv(env.DOCS_INDEXER_TASK_TIMEOUT_MS),
    retryDelayMs: numberFromEnv(env.DOCS_INDEXER_RETRY_DELAY_MS),
    attempts: numberFromEnv(env.DOCS_INDEXER_ATTEMPTS),
  };
  return parseWith(pushOptionsSchema, merged);
}
