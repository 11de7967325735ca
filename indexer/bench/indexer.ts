/**
 * Benchmark of the indexer's crawl + extract stages on a synthetic build of about 5,000 pages,
 * made by copying the real site/build's pages under numbered folders. Prints pages per second
 * (wall clock, and per CPU second: the machine is shared) and peak RSS; each measured run is a
 * fresh child process, so its RSS (worker threads included) is its own. Modes:
 * - `stream`: `docs-indexer crawl FOLDER --out FILE --json`, run through the CLI's main().
 * - `collect`: the library's default `crawl()` (records kept), then every record walked a page
 *   at a time, as `push` walks them for its diff.
 * - `push`: `docs-indexer push FOLDER --json` against a stub Algolia (in this process) holding
 *   no index: every record is diffed and sent in batches.
 * - `push-rerun`: the same push against a live index that already holds every record (browsed
 *   back from the stub): the whole diff runs and nothing is sent.
 *
 *   node --import tsx indexer/bench/indexer.ts [--pages 5000] [--runs 3] [--concurrency 8] [--source site/build] [--modes stream,collect,push,push-rerun]
 *   node --import tsx indexer/bench/indexer.ts --scale [--source site/build]
 *
 * Each mode runs `--runs` times, the modes taking turns (so a busy moment of the shared machine
 * does not land on one mode only); a mode reports its median rates and its highest peak RSS.
 *
 * - `stdout`: `docs-indexer crawl FOLDER` with the records on stdout (not in the default modes;
 *   the scale run uses it: stdout must not hold the whole array).
 *
 * Targets (issue 7, on the 2-core machine): ≥ 400 pages/s from a folder, peak RSS < 300 MB.
 * `runIndexerBench()` is exported for run.ts (`npm run bench`).
 *
 * Scale (issue 17): `--scale` (or `runIndexerScale()`) runs `stream`, `stdout`, `collect` and
 * `push` on 1,000 and on 10,000 pages and prints, per mode, the time and the peak RSS at 10,000
 * pages as ratios to 1,000: time ≈ 10 is linear; peak RSS ≈ 1 is memory that does not grow
 * with the site (the streaming modes), above 1 memory that does (collect and push keep every
 * record, deflated).
 */
import {spawn, spawnSync} from 'node:child_process';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import {mkdir, mkdtemp, readFile, readdir, rm, writeFile} from 'node:fs/promises';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {BENCH, SITE_BUILD} from './workspaces.ts';

export const INDEXER_TARGETS = {pagesPerSecond: 400, peakRssMB: 300} as const;

export interface IndexerBenchOptions {
  /** Pages in the synthetic build (default 5000). */
  pages?: number;
  /** The crawl's concurrency (default: the CLI default). */
  concurrency?: number;
  /** The real build to copy (default site/build). */
  source?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** Modes to run, in order (default: all). */
  modes?: IndexerBenchMode[];
  /** Measured runs per mode (default 3). */
  runs?: number;
}

export const INDEXER_BENCH_MODES = ['stream', 'collect', 'push', 'push-rerun'] as const;
export type IndexerBenchMode = (typeof INDEXER_BENCH_MODES)[number] | 'stdout';

export interface IndexerBenchRun {
  mode: IndexerBenchMode;
  pages: number;
  records: number;
  seconds: number;
  pagesPerSecond: number;
  /** Pages per second of CPU time: the wall-clock rate on an otherwise idle core. */
  pagesPerCpuSecond: number;
  peakRssMB: number;
  meetsTargets: boolean;
  /** Every run's pages/s and peak RSS (MB), in order. */
  samples: {pagesPerSecond: number; peakRssMB: number}[];
}

export interface IndexerBenchResult {
  name: 'indexer crawl+extract (folder)';
  targets: typeof INDEXER_TARGETS;
  runs: IndexerBenchRun[];
}

async function htmlFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, {recursive: true, withFileTypes: true});
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => path.relative(folder, path.join((e as unknown as {parentPath?: string}).parentPath ?? e.path, e.name)))
    .filter((f) => f !== '404.html' && f !== 'search.html' && !f.startsWith('assets'))
    .sort();
}

/** The site URL in a page's canonical link or og:url (the crawler takes record URLs from them). */
const CANONICAL = /(rel=["']?canonical["']?\s+href=["']?|property=["']?og:url["']?\s+content=["']?)(https?:\/\/[^/"'\s>]+\/)/g;

/** Copies the real pages under copy-N/ folders until `pages` pages exist; returns the folder. */
export async function makeSyntheticBuild(source: string, pages: number): Promise<string> {
  const files = await htmlFiles(source);
  if (files.length === 0) throw new Error(`no HTML pages in ${source}: build the site first (cd site && npx docusaurus build)`);
  const contents = await Promise.all(files.map((f) => readFile(path.join(source, f), 'utf8')));
  const out = await mkdtemp(path.join(tmpdir(), 'indexer-bench-'));
  // The home page at the root tells the crawler the site URL.
  await writeFile(path.join(out, 'index.html'), await readFile(path.join(source, 'index.html')));
  let written = 1;
  for (let copy = 0; written < pages; copy++) {
    for (let i = 0; i < files.length && written < pages; i++) {
      const target = path.join(out, `copy-${copy}`, files[i] as string);
      await mkdir(path.dirname(target), {recursive: true});
      // A copy is a page of its own: its canonical link (which names the record URL) says so.
      await writeFile(target, (contents[i] as string).replace(CANONICAL, `$1$2copy-${copy}/`));
      written += 1;
    }
  }
  return out;
}

interface ChildReport {
  pages: number;
  records: number;
  seconds: number;
  peakRssMB: number;
  /** Size of the records as JSON (stream mode). */
  jsonBytes: number;
  /** CPU time of the crawl (all threads): unlike wall time, it barely depends on the machine's load. */
  cpuSeconds: number;
}

const STUB = {appId: 'BENCHAPP', apiKey: 'bench-admin-key', index: 'bench_docs'};

/** Runs in the child: one measured run, then a JSON report on stdout. */
async function child(folder: string, mode: IndexerBenchMode, concurrency: number | undefined, out: string, hosts: string, totalPages: number): Promise<void> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let pages: number;
  let records: number;
  let bytes = 0;
  if (mode === 'collect') {
    const {crawl} = await import('docs-indexer');
    const result = await crawl(folder, concurrency ? {concurrency} : {});
    let walked = 0;
    for (const page of result.store.pages()) walked += page.length;
    if (walked !== result.recordCount) throw new Error(`walked ${walked} of ${result.recordCount} records`);
    pages = result.pages + result.skipped;
    records = result.recordCount;
  } else {
    const {main} = await import('docs-indexer/cli');
    const {Writable} = await import('node:stream');
    let stdout = '';
    let stderr = '';
    let stdoutBytes = 0;
    const sink = (append: (text: string) => void) =>
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          append(chunk.toString());
          callback();
        },
      });
    const args =
      mode === 'stream'
        ? ['crawl', folder, '--out', out, '--json']
        : mode === 'stdout'
          ? ['crawl', folder]
          : ['push', folder, '--json', '--index', STUB.index];
    if (concurrency) args.push('--concurrency', String(concurrency));
    const env = {
      ...process.env,
      CI: '1',
      ALGOLIA_APP_ID: STUB.appId,
      ALGOLIA_ADMIN_API_KEY: STUB.apiKey,
      ALGOLIA_HOSTS: hosts,
    };
    // The records on stdout are counted, not kept: what the CLI holds is what is measured.
    const toStdout = mode === 'stdout' ? sink((t) => (stdoutBytes += Buffer.byteLength(t))) : sink((t) => (stdout += t));
    const code = await main(args, {stdout: toStdout, stderr: sink((t) => (stderr += t)), env});
    if (code !== 0) throw new Error(`docs-indexer ${args[0]} exited with ${code}: ${stderr.trim()}`);
    if (mode === 'stdout') {
      // "crawled N pages (M skipped): R records in S s"
      const m = /crawled (\d+) pages \((\d+) skipped\): (\d+) records/.exec(stderr);
      if (!m) throw new Error(`unexpected crawl summary: ${stderr.trim()}`);
      stdout = JSON.stringify({pages: Number(m[1]), skipped: Number(m[2]), records: Number(m[3]), bytes: stdoutBytes});
    }
    const summary = JSON.parse(stdout) as {pages: number; records: number; skipped?: number; bytes: number; unchanged?: number};
    if (mode === 'push-rerun' && summary.unchanged !== summary.records) throw new Error(`the rerun changed records: ${stdout}`);
    // push prints no skipped count: every page of the folder was crawled.
    pages = mode === 'stream' || mode === 'stdout' ? summary.pages + (summary.skipped ?? 0) : totalPages;
    records = summary.records;
    bytes = summary.bytes;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const report: ChildReport = {
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    pages,
    records,
    seconds,
    peakRssMB: process.resourceUsage().maxRSS / 1024,
    jsonBytes: bytes,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/**
 * The Algolia calls a push makes, answered from memory: no index at first; once a push has moved
 * its temporary index over the live one, the live index holds `liveRecords()` (browsable).
 * Algolia does its work on its own machines; this stand-in shares the benchmark's two cores, so
 * it does its expensive part (reading the records, serializing the browse pages) once, in
 * `prepare()`, before any measured run, and then only sends prepared text.
 */
async function startStubAlgolia(liveRecords: () => Promise<unknown[]>): Promise<{url: string; reset: () => void; prepare: () => Promise<void>; close: () => Promise<void>}> {
  const {DOCSEARCH_SETTINGS} = await import('docs-indexer');
  let live: unknown[] | undefined;
  let prepared: {records: unknown[]; pages: Map<number, string>} | undefined;
  const BROWSE_PAGE = 1000;
  const browsePage = (all: unknown[], start: number, hitsPerPage: number): string => {
    const next = start + hitsPerPage;
    return JSON.stringify({hits: all.slice(start, next), nbHits: all.length, page: 0, nbPages: 1, hitsPerPage, processingTimeMS: 1, query: '', params: '', ...(next < all.length ? {cursor: String(next)} : {})});
  };
  const prepare = async (): Promise<void> => {
    if (prepared) return;
    const records = await liveRecords();
    const pages = new Map<number, string>();
    for (let start = 0; start < records.length || start === 0; start += BROWSE_PAGE) pages.set(start, browsePage(records, start, BROWSE_PAGE));
    prepared = {records, pages};
  };
  let task = 1;
  /** The settings each index was given (the publisher marks its build in `userData`). */
  const settings = new Map<string, Record<string, unknown>>();
  const reset = (): void => {
    live = undefined;
    settings.clear();
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const parts = new URL(req.url ?? '/', 'http://stub').pathname.split('/').filter(Boolean).map(decodeURIComponent);
        const [, , name, action] = parts;
        const send = (status: number, payload: unknown): void => {
          res.writeHead(status, {'content-type': 'application/json'}).end(JSON.stringify(payload));
        };
        const isLive = name === STUB.index;
        if (parts.length === 2 && req.method === 'GET') {
          // listIndices: no temporary index is ever left here.
          send(200, {items: [], nbPages: 1});
        } else if (action === 'settings' && req.method === 'GET') {
          if (isLive && live) send(200, settings.get(STUB.index) ?? DOCSEARCH_SETTINGS);
          else if (!isLive && name && settings.has(name)) send(200, settings.get(name));
          else send(404, {message: 'Index does not exist', status: 404});
        } else if (action === 'settings' && req.method === 'PUT') {
          if (name) settings.set(name, JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>);
          send(200, {taskID: task++, updatedAt: new Date().toISOString()});
        } else if (action === 'browse') {
          const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {cursor?: string; hitsPerPage?: number};
          const all = isLive && live ? live : [];
          const start = body.cursor ? Number(body.cursor) : 0;
          const hitsPerPage = body.hitsPerPage ?? BROWSE_PAGE;
          const text = all === prepared?.records && hitsPerPage === BROWSE_PAGE ? prepared.pages.get(start) : undefined;
          res.writeHead(200, {'content-type': 'application/json'}).end(text ?? browsePage(all, start, hitsPerPage));
        } else if (action === 'operation') {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as {operation: string; destination: string};
          if (body.operation === 'move' && body.destination === STUB.index) {
            await prepare();
            live = prepared?.records;
            const moved = name ? settings.get(name) : undefined;
            if (moved) settings.set(STUB.index, moved);
          }
          send(200, {taskID: task++, updatedAt: new Date().toISOString()});
        } else if (action === 'task') {
          send(200, {status: 'published'});
        } else if (req.method === 'DELETE') {
          send(200, {taskID: task++, deletedAt: new Date().toISOString()});
        } else {
          send(200, {taskID: task++, updatedAt: new Date().toISOString(), objectIDs: []});
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    reset,
    prepare,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One measured run of `mode` in a fresh child process. */
function runChild(folder: string, mode: IndexerBenchMode, out: string, hosts: string, pages: number, concurrency: number | undefined): Promise<ChildReport> {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', folder, '--mode', mode, '--out', out, '--hosts', hosts, '--total', String(pages)];
  if (concurrency) args.push('--concurrency', String(concurrency));
  return new Promise<ChildReport>((resolve, reject) => {
    const proc = spawn(process.execPath, args, {cwd: BENCH, stdio: ['ignore', 'pipe', 'inherit']});
    let stdout = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) reject(new Error(`benchmark child exited with ${code}`));
      else resolve(JSON.parse(stdout) as ChildReport);
    });
  });
}

export async function runIndexerBench(options: IndexerBenchOptions = {}): Promise<IndexerBenchResult> {
  const log = options.log ?? (() => {});
  const pages = options.pages ?? 5000;
  const source = options.source ?? SITE_BUILD;
  log(`indexer: making a synthetic build of ${pages} pages from ${path.relative(process.cwd(), source) || source}…`);
  const folder = await makeSyntheticBuild(source, pages);
  // Write the new files out now, not while the first measured run reads them.
  spawnSync('sync');
  const out = path.join(folder, 'records.json');
  // The live index of `push-rerun`: the records a crawl of the same folder gives.
  const stub = await startStubAlgolia(async () => {
    try {
      return JSON.parse(await readFile(out, 'utf8')) as unknown[];
    } catch {
      throw new Error('push-rerun needs the stream mode first (its records are the live index)');
    }
  });
  try {
    const modes = options.modes ?? INDEXER_BENCH_MODES;
    const rounds = options.runs ?? 3;
    const reports = new Map<IndexerBenchMode, ChildReport[]>(modes.map((m) => [m, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const mode of modes) {
        log(`indexer: ${mode} mode, run ${round} of ${rounds} (child process)…`);
        // A push starts from no live index; push-rerun finds the one the push left.
        if (mode === 'push') stub.reset();
        reports.get(mode)?.push(await runChild(folder, mode, out, stub.url, pages, options.concurrency));
        // The stand-in Algolia reads the records the first stream run wrote, between runs.
        if (mode === 'stream' && round === 1 && modes.some((m) => m === 'push' || m === 'push-rerun')) await stub.prepare();
      }
    }
    const median = (values: number[]): number => {
      const sorted = [...values].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
    };
    const runs: IndexerBenchRun[] = modes.map((mode) => {
      const all = reports.get(mode) ?? [];
      const pagesPerSecond = median(all.map((r) => r.pages / r.seconds));
      const peakRssMB = Math.max(...all.map((r) => r.peakRssMB));
      const first = all[0] as ChildReport;
      return {
        mode,
        pages: first.pages,
        records: first.records,
        seconds: Math.round(median(all.map((r) => r.seconds)) * 100) / 100,
        pagesPerSecond: Math.round(pagesPerSecond),
        pagesPerCpuSecond: Math.round(median(all.map((r) => r.pages / r.cpuSeconds))),
        peakRssMB: Math.round(peakRssMB),
        meetsTargets: pagesPerSecond >= INDEXER_TARGETS.pagesPerSecond && peakRssMB < INDEXER_TARGETS.peakRssMB,
        samples: all.map((r) => ({pagesPerSecond: Math.round(r.pages / r.seconds), peakRssMB: Math.round(r.peakRssMB)})),
      };
    });
    return {name: 'indexer crawl+extract (folder)', targets: INDEXER_TARGETS, runs};
  } finally {
    await stub.close();
    await rm(folder, {recursive: true, force: true});
  }
}

export const SCALE_MODES: IndexerBenchMode[] = ['stream', 'stdout', 'collect', 'push'];

export interface IndexerScaleRun {
  mode: IndexerBenchMode;
  small: {pages: number; seconds: number; peakRssMB: number};
  large: {pages: number; seconds: number; peakRssMB: number};
  /** large/small wall time: 10 when linear in pages. */
  timeRatio: number;
  /** large/small peak RSS: 1 when memory does not grow with the site. */
  memoryRatio: number;
}

/** The same modes on `small` and `large` pages (default 1,000 and 10,000), one child run each. */
export async function runIndexerScale(options: {small?: number; large?: number; modes?: IndexerBenchMode[]; source?: string; log?: (line: string) => void} = {}): Promise<{runs: IndexerScaleRun[]}> {
  const small = options.small ?? 1000;
  const large = options.large ?? 10_000;
  const modes = options.modes ?? SCALE_MODES;
  const measured = new Map<number, Map<IndexerBenchMode, IndexerBenchRun>>();
  for (const pages of [small, large]) {
    const result = await runIndexerBench({
      pages,
      runs: 1,
      modes,
      ...(options.source ? {source: options.source} : {}),
      ...(options.log ? {log: options.log} : {}),
    });
    measured.set(pages, new Map(result.runs.map((run) => [run.mode, run])));
  }
  const runs = modes.map((mode): IndexerScaleRun => {
    const a = measured.get(small)?.get(mode) as IndexerBenchRun;
    const b = measured.get(large)?.get(mode) as IndexerBenchRun;
    const round = (x: number): number => Math.round(x * 100) / 100;
    return {
      mode,
      small: {pages: a.pages, seconds: a.seconds, peakRssMB: a.peakRssMB},
      large: {pages: b.pages, seconds: b.seconds, peakRssMB: b.peakRssMB},
      timeRatio: round(b.seconds / a.seconds),
      memoryRatio: round(b.peakRssMB / a.peakRssMB),
    };
  });
  return {runs};
}

export function scaleLine(run: IndexerScaleRun): string {
  return (
    `indexer scale (${run.mode}): ${run.small.pages} pages ${run.small.seconds} s ${run.small.peakRssMB} MB; ` +
    `${run.large.pages} pages ${run.large.seconds} s ${run.large.peakRssMB} MB; ` +
    `time ×${run.timeRatio} (linear: ×${Math.round(run.large.pages / run.small.pages)}), peak RSS ×${run.memoryRatio}`
  );
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const concurrency = flag('--concurrency') ? Number(flag('--concurrency')) : undefined;
  const childFolder = flag('--child');
  if (childFolder) {
    const mode = INDEXER_BENCH_MODES.find((m) => m === flag('--mode')) ?? 'stream';
    await child(childFolder, mode, concurrency, flag('--out') ?? '', flag('--hosts') ?? '', Number(flag('--total') ?? 0));
  } else if (process.argv.includes('--scale')) {
    const result = await runIndexerScale({
      ...(flag('--source') ? {source: path.resolve(flag('--source') as string)} : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    for (const run of result.runs) process.stdout.write(`${scaleLine(run)}\n`);
  } else {
    const modes = flag('--modes')?.split(',').map((m) => {
      const known = [...INDEXER_BENCH_MODES, 'stdout' as const].find((k) => k === m);
      if (!known) throw new Error(`unknown mode ${m} (${INDEXER_BENCH_MODES.join(', ')})`);
      return known;
    });
    const result = await runIndexerBench({
      ...(modes ? {modes} : {}),
      ...(flag('--runs') ? {runs: Number(flag('--runs'))} : {}),
      pages: flag('--pages') ? Number(flag('--pages')) : 5000,
      ...(flag('--source') ? {source: path.resolve(flag('--source') as string)} : {}),
      ...(concurrency ? {concurrency} : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    for (const run of result.runs) {
      process.stdout.write(
        `indexer (${run.mode}): ${run.pages} pages, ${run.records} records in ${run.seconds} s: ` +
          `${run.pagesPerSecond} pages/s (target ≥ ${result.targets.pagesPerSecond}; ` +
          `${run.pagesPerCpuSecond} pages per CPU second), ` +
          `peak RSS ${run.peakRssMB} MB (target < ${result.targets.peakRssMB}); ` +
          `runs: ${run.samples.map((r) => `${r.pagesPerSecond} pages/s ${r.peakRssMB} MB`).join(', ')}\n`,
      );
    }
  }
}
