/**
 * HTTP for a URL crawl: GET with retries (p-retry; 429 and 5xx retried, other statuses not),
 * redirects followed only inside the site, Basic auth from SOURCE's credentials, bodies read up
 * to a size limit, and a one-line description of every failure (credentials masked).
 */
import pRetry, {AbortError} from 'p-retry';
import {decodePage} from '../extract/charset.ts';
import {MAX_PAGE_BYTES} from '../extract/pool.ts';
import type {CrawlOptions} from './types.ts';
import {redactUrl} from './urls.ts';

export class HttpStatusError extends Error {
  constructor(readonly status: number, url: string) {
    super(`HTTP ${status} for ${url}`);
  }
}

/** A redirect out of the site's origin and base path: not followed. */
export class OffSiteRedirect extends Error {
  constructor(readonly location: string) {
    super(`redirects off the site, to ${location}`);
  }
}

export interface Fetched {
  /** The URL that answered, after redirects inside the site. */
  url: string;
  status: number;
  contentType: string;
  body: string;
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export function describe(error: unknown): string {
  if (error instanceof HttpStatusError || error instanceof OffSiteRedirect || error instanceof TooLargeError) return error.message;
  const cause = (error as {cause?: {code?: string; message?: string}}).cause;
  if (cause?.code) return cause.code;
  if ((error as Error).name === 'TimeoutError') return 'timed out';
  return redactUrl(cause?.message ?? (error as Error).message ?? String(error));
}

/** A body over the size limit: not read past it, the page skipped as `too-large`. */
export class TooLargeError extends Error {
  constructor(readonly url: string, maxBytes: number) {
    super(`larger than ${maxBytes / 1024 / 1024} MB`);
  }
}

/** Reads a response's body, at most `maxBytes` of it (its Content-Length is checked first). */
async function readBody(response: Response, url: string, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new TooLargeError(url, maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new TooLargeError(url, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const MAX_REDIRECTS = 5;

/** HTTP for a URL crawl: retries (p-retry), redirects followed only inside the site, Basic auth. */
export class SiteClient {
  constructor(
    private readonly options: CrawlOptions,
    private readonly inScope: (url: URL) => boolean,
    private readonly authorization: string | undefined,
  ) {}

  /**
   * GETs `url`; an error status throws HttpStatusError unless `allowStatus` accepts it, a body
   * over `maxBytes` (default MAX_PAGE_BYTES) a TooLargeError.
   */
  async get(url: string, allowStatus: (status: number) => boolean = () => false, maxBytes = MAX_PAGE_BYTES): Promise<Fetched> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const answer = await this.request(current, allowStatus, maxBytes);
      if (answer.location === undefined) return {...answer, url: current};
      const next = new URL(answer.location, current);
      next.hash = '';
      if (!this.inScope(next)) throw new OffSiteRedirect(redactUrl(next.toString()));
      current = next.toString();
    }
    throw new Error(`more than ${MAX_REDIRECTS} redirects from ${url}`);
  }

  private request(url: string, allowStatus: (status: number) => boolean, maxBytes: number): Promise<Omit<Fetched, 'url'> & {location?: string}> {
    const attempts = this.options.attempts ?? 3;
    const headers: Record<string, string> = {'user-agent': 'docs-indexer'};
    if (this.authorization) headers.authorization = this.authorization;
    return pRetry(
      async () => {
        const response = await fetch(url, {
          redirect: 'manual',
          signal: this.options.signal
            ? AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs ?? 15_000), this.options.signal])
            : AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
          headers,
        });
        const location = response.headers.get('location');
        if (REDIRECTS.has(response.status) && location) {
          await response.body?.cancel();
          return {status: response.status, contentType: '', body: '', location};
        }
        if (!response.ok && !allowStatus(response.status)) {
          await response.body?.cancel();
          const error = new HttpStatusError(response.status, url);
          throw isRetryableStatus(response.status) ? error : new AbortError(error);
        }
        const contentType = response.headers.get('content-type') ?? '';
        let bytes: Uint8Array;
        try {
          bytes = await readBody(response, url, maxBytes);
        } catch (error) {
          throw error instanceof TooLargeError ? new AbortError(error) : error;
        }
        // A page is read in the encoding a browser would use (header, BOM, <meta charset>); anything else as UTF-8.
        const body = /html/i.test(contentType) ? decodePage(bytes, contentType) : new TextDecoder().decode(bytes);
        return {status: response.status, contentType, body};
      },
      {
        retries: attempts - 1,
        ...(this.options.signal ? {signal: this.options.signal} : {}),
        minTimeout: 100,
        factor: 2,
        randomize: false,
        onFailedAttempt: ({error, attemptNumber, retriesLeft}) => {
          if (retriesLeft > 0) this.options.onEvent?.({type: 'retry', url, attempt: attemptNumber, error: describe(error)});
        },
      },
    );
  }
}
