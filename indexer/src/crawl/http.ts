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
  /** The `X-Robots-Tag` header, when the answer had one (several are joined by `, `). */
  robots?: string;
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** A request that did not finish (headers and body) within its deadline. */
export class DeadlineError extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/**
 * One attempt's deadline: a timer of our own, kept alive until the attempt settles and then
 * cleared, that aborts the request whatever the server does (no headers, a body sent a byte at a
 * time). `AbortSignal.any([AbortSignal.timeout(…), …])` did not do that: the composite holds its
 * sources weakly, and the timeout signal could be collected before it fired (a crawl waited for
 * ever). The crawl's own signal (Ctrl-C) aborts it too.
 */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = (): void => this.controller.abort(this.parent?.reason);
  constructor(
    readonly ms: number,
    private readonly parent: AbortSignal | undefined,
  ) {
    this.timer = setTimeout(() => this.controller.abort(new DeadlineError(ms)), ms);
    if (parent?.aborted) this.onAbort();
    else parent?.addEventListener('abort', this.onAbort, {once: true});
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** `work`, or the abort reason as soon as the deadline (or the crawl's signal) fires. */
  race<T>(work: Promise<T>): Promise<T> {
    const signal = this.controller.signal;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    let stop!: () => void;
    const aborted = new Promise<never>((_resolve, reject) => {
      stop = () => reject(signal.reason as Error);
      signal.addEventListener('abort', stop, {once: true});
    });
    return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', stop));
  }

  clear(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.onAbort);
  }
}

export function describe(error: unknown): string {
  if (error instanceof HttpStatusError || error instanceof OffSiteRedirect || error instanceof TooLargeError || error instanceof DeadlineError) return error.message;
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

/** Deadline of one attempt of one request, headers and body (CrawlOptions.timeoutMs). */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Attempts per request (CrawlOptions.attempts). */
export const DEFAULT_ATTEMPTS = 3;

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
    const attempts = this.options.attempts ?? DEFAULT_ATTEMPTS;
    const headers: Record<string, string> = {'user-agent': 'docs-indexer'};
    if (this.authorization) headers.authorization = this.authorization;
    return pRetry(
      async () => {
        // One deadline for the whole attempt: headers and body (a redirect is one attempt of its own hop).
        const deadline = new Deadline(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, this.options.signal);
        try {
          return await deadline.race(this.attempt(url, allowStatus, maxBytes, headers, deadline.signal));
        } catch (error) {
          // The crawl's own signal: the run stops (p-retry does not try again).
          if (this.options.signal?.aborted) throw new AbortError(error instanceof Error ? error : String(error));
          throw error;
        } finally {
          deadline.clear();
        }
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

  private async attempt(
    url: string,
    allowStatus: (status: number) => boolean,
    maxBytes: number,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Omit<Fetched, 'url'> & {location?: string}> {
    const response = await fetch(url, {redirect: 'manual', signal, headers});
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
    const robots = response.headers.get('x-robots-tag');
    return {status: response.status, contentType, body, ...(robots === null ? {} : {robots})};
  }
}
