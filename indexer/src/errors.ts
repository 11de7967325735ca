/**
 * The indexer's error family and the one place that maps errors to exit codes.
 *
 * Exit codes (documented in the README):
 * - 0: done.
 * - 1: the run failed (a page could not be fetched, Algolia failed or the run was interrupted);
 *      the live index and FILE are left as they were.
 * - 2: bad usage, configuration, source or output (flags, credentials, an empty or unreadable
 *      source, an --out path that cannot be written).
 * - 3: another publish changed the live index during the run; it holds that run's complete build.
 *
 * Errors from other modules that a user can cause (a bad local index file, a lost extract
 * worker, a file system error) are translated by `toIndexerError`, so the CLI prints
 * "unexpected error" only for a defect of the indexer itself.
 */

export type ExitCode = 1 | 2 | 3;

/** Base class: every error the library throws on purpose. Its message is one line for the user. */
export abstract class IndexerError extends Error {
  abstract readonly exitCode: ExitCode;
  constructor(message: string, options?: {cause?: unknown}) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A flag, option or environment variable is missing or invalid. */
export class UsageError extends IndexerError {
  readonly exitCode = 2;
}

/** The source cannot be read, is empty, or a crawl found no pages; or a local index file is unreadable. */
export class SourceError extends IndexerError {
  readonly exitCode = 2;
}

/** The output (--out FILE, the local index) cannot be written where it was asked to go. */
export class OutputError extends IndexerError {
  readonly exitCode = 2;
}

/** Algolia rejected the credentials (401/403): retrying cannot help, the configuration must change. */
export class AuthError extends IndexerError {
  readonly exitCode = 2;
}

/** A page could not be fetched or extracted during a crawl (after retries). */
export class CrawlError extends IndexerError {
  readonly exitCode = 1;
}

/** Publishing failed or was interrupted; the live index was left as it was. */
export class PublishError extends IndexerError {
  readonly exitCode = 1;
}

/**
 * Another publish changed the live index while this run was publishing: the live index holds
 * that run's complete build, not this one's. Running again publishes this build.
 */
export class ConflictError extends IndexerError {
  readonly exitCode = 3;
}

/**
 * Errors of the search engine (LocalIndexError) and the extract pool (WorkerLostError), matched
 * by class name rather than imported: this module stays free of dependencies, so that every
 * stage can import it.
 */
const TRANSLATED: Record<string, (message: string, cause: unknown) => IndexerError> = {
  LocalIndexError: (message, cause) => new SourceError(message, {cause}),
  WorkerLostError: (message, cause) => new CrawlError(message, {cause}),
};

/** File system error codes a user causes with a path, and what they mean in one line. */
const FS_CODES: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'is a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EEXIST: 'already exists',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
};

/**
 * The IndexerError for `error`: itself when it is one; a translation for the known errors of
 * other modules and for file system errors (exit 2: the path must change); otherwise undefined,
 * which means a defect of the indexer.
 */
export function toIndexerError(error: unknown): IndexerError | undefined {
  if (error instanceof IndexerError) return error;
  if (!(error instanceof Error)) return undefined;
  const translate = TRANSLATED[error.constructor.name] ?? TRANSLATED[error.name];
  if (translate) return translate(error.message, error);
  const {code, path, syscall} = error as NodeJS.ErrnoException;
  if (code && FS_CODES[code] && syscall) {
    const where = path ? `${path}: ` : '';
    return new SourceError(`cannot ${syscall} ${where}${FS_CODES[code]} (${code})`, {cause: error});
  }
  return undefined;
}

export function exitCodeFor(error: unknown): ExitCode {
  return toIndexerError(error)?.exitCode ?? 1;
}

/** The environment variables that hold secrets: their values never reach the output. */
export const SECRET_ENV_VARS = ['ALGOLIA_ADMIN_API_KEY', 'ALGOLIA_SEARCH_API_KEY'] as const;

/**
 * The one masking function: replaces every occurrence of each secret (the Algolia write key
 * above all) by `***`. Pass the secrets, or an environment to take SECRET_ENV_VARS from.
 * Secrets shorter than 4 characters are left alone (masking "a" would garble every message).
 */
export function maskSecrets(text: string, secrets: readonly (string | undefined)[] | NodeJS.ProcessEnv): string {
  const list: readonly (string | undefined)[] = Array.isArray(secrets)
    ? (secrets as readonly (string | undefined)[])
    : SECRET_ENV_VARS.map((name) => (secrets as NodeJS.ProcessEnv)[name]);
  let out = text;
  // Each secret as given and as used (trimmed): a server echoing the key it got echoes the trimmed
  // one; and as a URL or a JSON string would carry it (percent-encoded, escaped).
  const forms = new Set<string>();
  for (const value of list) {
    if (value === undefined) continue;
    for (const secret of [value, value.trim()]) {
      forms.add(secret);
      forms.add(encodeURIComponent(secret));
      forms.add(JSON.stringify(secret).slice(1, -1));
    }
  }
  // Longest first: a form that contains another is replaced whole.
  for (const secret of [...forms].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}

/**
 * `text` masked (maskSecrets), then cut to `max` characters with `…`: masking comes first, so a
 * cut can never fall inside a secret and show part of it.
 */
export function maskAndCut(text: string, secrets: readonly (string | undefined)[] | NodeJS.ProcessEnv, max: number): string {
  const masked = maskSecrets(text, secrets);
  return masked.length > max ? `${masked.slice(0, max)}…` : masked;
}

/** The single stderr line for an error: no stack trace, no newline inside, secrets masked. */
export function errorLine(error: unknown, secrets: readonly (string | undefined)[] | NodeJS.ProcessEnv = []): string {
  const known = toIndexerError(error);
  const message = known
    ? known.message
    : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  return `docs-indexer: ${maskSecrets(message.replace(/\s*\n\s*/g, ' ').trim(), secrets)}`;
}
