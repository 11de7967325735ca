/**
 * The extract stage on worker threads, for big sites: parsing a page is the crawl's main cost
 * (~3 ms of CPU for a 100 KB Docusaurus page), and one thread cannot reach the issue's 400 pages/s.
 *
 * A job names a file to read (or carries the HTML) and comes back as text, not objects: the
 * page's records as JSON (what `crawl --out` writes) or, when the crawl collects them, as
 * deflated JSON for the RecordStore. Objects would be copied one by one into the calling
 * thread's heap, which is what kept the collect mode far above 300 MB.
 *
 * The pool keeps a small queue per worker (the crawl's own concurrency limit bounds the jobs in
 * flight). Each worker's heap is capped (with no cap, V8 lets a worker's heap grow to several
 * times what one page needs: two workers took the crawl past 300 MB). A worker that dies (out
 * of memory on a huge page, or any crash) fails its jobs with WorkerLostError; the crawl runs
 * those pages in its own thread and the pool goes on with the workers left.
 *
 * Hand-written rather than piscina (issue 12 asked for a maintained pool): piscina 5.3.2 behind
 * this same interface (same heap caps, same jobs, a CommonJS entry registering tsx) gave the
 * same records but fewer pages per CPU second, measured 2026-11-25 with `indexer/bench/indexer.ts
 * --pages 1000 --runs 3 --modes stream,collect`: stream 96 vs 109 (12% fewer), collect 98 vs 102
 * (4% fewer), peak RSS 224 vs 222 MB and 158 vs 148 MB. The machine was shared (load average
 * 16 to 23), hence CPU seconds rather than wall time; piscina's wall time was lower still. Its
 * replacement of a dead worker would not have helped either: a worker running out of its
 * capped heap can abort the whole process, which is why big pages never reach a worker
 * (MAX_WORKER_PAGE_BYTES).
 */
import {stat} from 'node:fs/promises';
import {readRegularFile} from '../read-regular.ts';
import {createRequire} from 'node:module';
import {availableParallelism} from 'node:os';
import {fileURLToPath} from 'node:url';
import {Worker} from 'node:worker_threads';
import {deflateRawSync} from 'node:zlib';
import {extractPageDetailed, type ExtractedPage, type ExtractOptions, type SiteUrls, type SkipReason} from './extract.ts';
import {PageTooDeepError} from './page-reader.ts';
import {decodePage} from './charset.ts';
import {contentHashes} from '../records/content-hash.ts';
import {SourceError} from '../errors.ts';
import type {PackedDigest} from '../records/store.ts';

export interface PageJob {
  /** Absolute page URL without anchor (the record URL unless `site` maps the page's canonical). */
  url: string;
  /** How the page's canonical link becomes its record URL (extract.ts, recordUrlFor). */
  site?: SiteUrls;
  /** The page's file (read by the worker) … */
  file?: string;
  /** … or its HTML. */
  html?: string;
  pageRank: number;
  validate?: boolean;
  /** No record larger than this, in bytes of JSON (ExtractOptions.maxRecordBytes). */
  maxRecordBytes?: number;
  /** true: return the records deflated (`packed`); false: as JSON text (`json`). */
  pack: boolean;
  /** With `pack`: also their objectIDs and content hashes (`digest`), for push's diff. */
  digests?: boolean;
}

/**
 * Pages above this size are skipped with a warning (reason `too-large`): a real docs page is
 * well under 1 MB (site/build's largest is about 200 KB), so this is a broken or hostile file,
 * and reading it would cost memory in proportion to its size.
 */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;

/**
 * Pages above this size are extracted on the calling thread instead of a worker: a worker's heap
 * is capped (WORKER_HEAP_MB), and running out of it does not always end just the worker — an
 * allocation by V8's background compiler can abort the whole process (seen with a 50 MB page).
 * The calling thread's heap has room for a page up to MAX_PAGE_BYTES.
 */
export const MAX_WORKER_PAGE_BYTES = 1024 * 1024;

export type PageSkipReason = SkipReason | 'too-large' | 'too-deep';

/** extractPageDetailed, with a page nested past MAX_NESTING_DEPTH skipped (`too-deep`) instead of failing the crawl. */
export function extractOrSkip(html: string, options: ExtractOptions): Omit<ExtractedPage, 'skipped'> & {skipped?: PageSkipReason; detail?: string} {
  try {
    return extractPageDetailed(html, options);
  } catch (error) {
    if (error instanceof PageTooDeepError) return {records: [], url: options.url, skipped: 'too-deep'};
    throw error;
  }
}

/** A page's size in bytes: its file's, or its HTML's (UTF-8). */
export async function pageBytes(job: Pick<PageJob, 'file' | 'html'>): Promise<number | undefined> {
  if (job.html !== undefined) return Buffer.byteLength(job.html);
  if (job.file === undefined) return undefined;
  try {
    return (await stat(job.file)).size;
  } catch {
    return undefined; // reading it will say what is wrong
  }
}

export interface PageOutput {
  /** The record URL, when it is not the job's `url`. */
  url?: string;
  skipped?: PageSkipReason;
  /** What the skip means, when it says more than its reason (a redirect's target). */
  detail?: string;
  count: number;
  /** `JSON.stringify(records)`, when not packed. */
  json?: string;
  /** `JSON.stringify(records)` deflated (raw), when packed. */
  packed?: Uint8Array;
  /** Bytes of that JSON before deflating, when packed. */
  jsonBytes?: number;
  /** The records' objectIDs and content hashes, when asked for. */
  digest?: PackedDigest;
}

/** What a worker sends back for a failed job. */
interface JobFailure {
  /** A SourceError (unreadable file) rather than an internal error. */
  source: boolean;
  message: string;
}

export type WorkerReply = {id: number; output: PageOutput} | {id: number; failure: JobFailure};

/** Runs one job in the current thread (the worker's body; also usable without workers). */
export async function extractJob(job: PageJob): Promise<PageOutput> {
  let html = job.html;
  if (html === undefined) {
    if (job.file === undefined) throw new Error('a page job needs a file or its HTML');
    try {
      const bytes = await readRegularFile(job.file, MAX_PAGE_BYTES);
      if (bytes === undefined) return {skipped: 'too-large', count: 0};
      html = decodePage(bytes);
    } catch (error) {
      throw new SourceError(`cannot read ${job.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  const page = extractOrSkip(html, {
    url: job.url,
    pageRank: job.pageRank,
    ...(job.site ? {site: job.site} : {}),
    ...(job.validate === undefined ? {} : {validate: job.validate}),
    ...(job.maxRecordBytes === undefined ? {} : {maxRecordBytes: job.maxRecordBytes}),
  });
  const url = page.url === job.url ? {} : {url: page.url};
  if (page.skipped) return {...url, skipped: page.skipped, ...(page.detail ? {detail: page.detail} : {}), count: 0};
  const json = JSON.stringify(page.records);
  if (!job.pack) return {...url, count: page.records.length, json};
  // A copy with its own ArrayBuffer, so it can be transferred rather than cloned.
  return {
    ...url,
    count: page.records.length,
    packed: new Uint8Array(deflateRawSync(json, {level: 3})),
    jsonBytes: Buffer.byteLength(json),
    ...(job.digests ? {digest: {ids: page.records.map((r) => r.objectID).join('\n'), hashes: contentHashes(page.records)}} : {}),
  };
}

export function jobFailure(error: unknown): JobFailure {
  return {source: error instanceof SourceError, message: error instanceof Error ? error.message : String(error)};
}

/** Workers a crawl of `pages` pages uses by default: none for small sites or a single core. */
export function defaultWorkers(pages: number): number {
  const cores = availableParallelism();
  if (pages < 100 || cores < 2) return 0;
  return Math.min(cores, 4);
}

/**
 * The worker runs worker.js once built (dist/: plain ESM, started as it is), else worker.ts.
 * Under tsx (tests, benchmarks on the sources) a worker does not inherit the TypeScript loader: a
 * one-line bootstrap registers tsx's require hook first (it runs in the worker's own thread,
 * unlike the ESM loader, which adds a loader thread per worker).
 */
function startWorker(heapMb: {young: number; old: number}): Worker {
  const resourceLimits = {maxYoungGenerationSizeMb: heapMb.young, maxOldGenerationSizeMb: heapMb.old};
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./worker.js', import.meta.url), {resourceLimits});
  const entry = fileURLToPath(new URL('./worker.ts', import.meta.url));
  let tsx: string | undefined;
  try {
    // createRequire rather than import.meta.resolve: Docusaurus loads this file through jiti.
    tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  } catch {
    tsx = undefined;
  }
  const code = `${tsx ? `require(${JSON.stringify(tsx)}).register();` : ''}require(${JSON.stringify(entry)});`;
  return new Worker(code, {eval: true, resourceLimits});
}

/** Heap caps of a worker (MB): the young generation, and the old one. */
export const WORKER_HEAP_MB = {young: 12, old: 64} as const;

/** The job's worker died before answering: run the job elsewhere. */
export class WorkerLostError extends Error {}

interface Pending {
  resolve: (output: PageOutput) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  failure?: Error;
}

export class ExtractPool {
  private readonly slots: Slot[];
  private nextId = 0;
  private closed = false;

  constructor(size: number, heapMb: {young: number; old: number} = WORKER_HEAP_MB) {
    this.slots = Array.from({length: size}, () => {
      const slot: Slot = {worker: startWorker(heapMb), pending: new Map()};
      const fail = (error: Error): void => {
        slot.failure ??= error;
        for (const p of slot.pending.values()) p.reject(slot.failure);
        slot.pending.clear();
      };
      slot.worker.on('message', (reply: WorkerReply) => {
        const pending = slot.pending.get(reply.id);
        if (!pending) return;
        slot.pending.delete(reply.id);
        if ('output' in reply) pending.resolve(reply.output);
        else pending.reject(reply.failure.source ? new SourceError(reply.failure.message) : new Error(reply.failure.message));
      });
      slot.worker.on('error', (error) => fail(new WorkerLostError(`extract worker failed: ${error.message}`)));
      slot.worker.on('exit', (code) => {
        if (!this.closed) fail(new WorkerLostError(`extract worker stopped (exit code ${code})`));
      });
      return slot;
    });
  }

  get size(): number {
    return this.slots.length;
  }

  /** Runs a job on the least busy live worker. */
  run(job: PageJob): Promise<PageOutput> {
    let slot: Slot | undefined;
    for (const s of this.slots) if (!s.failure && (!slot || s.pending.size < slot.pending.size)) slot = s;
    if (!slot || this.closed) return Promise.reject(new WorkerLostError('no extract worker left'));
    const target = slot;
    const id = this.nextId++;
    return new Promise<PageOutput>((resolve, reject) => {
      target.pending.set(id, {resolve, reject});
      target.worker.postMessage({id, job});
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
