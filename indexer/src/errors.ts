/**
 * The indexer's error family and the one place that maps errors to exit codes.
 * Exit code 1: the run failed (network, API error) and the live index is untouched.
 * Exit code 2: bad usage or configuration (flags, credentials, an empty or unreadable source).
 * Exit code 3: another publish changed the live index during the run; it holds that run's build.
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

/** The source cannot be read, is empty, or a crawl found no pages. */
export class SourceError extends IndexerError {
  readonly exitCode = 2;
}

/** Algolia rejected the credentials (401/403): retrying cannot help, the configuration must change. */
export class AuthError extends IndexerError {
  readonly exitCode = 2;
}

/** A page could not be fetched during a crawl (after retries). */
export class CrawlError extends IndexerError {
  readonly exitCode = 1;
}

/** Publishing failed; the live index was left as it was. */
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

export function exitCodeFor(error: unknown): ExitCode {
  return error instanceof IndexerError ? error.exitCode : 1;
}

/** Replaces every occurrence of each secret (e.g. the Algolia write key) by `***`. */
export function maskSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}

/** The single stderr line for an error: no stack trace, no newline inside, secrets masked. */
export function errorLine(error: unknown, secrets: readonly (string | undefined)[] = []): string {
  const message =
    error instanceof IndexerError
      ? error.message
      : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  return `docs-indexer: ${maskSecrets(message.replace(/\s*\n\s*/g, ' ').trim(), secrets)}`;
}
