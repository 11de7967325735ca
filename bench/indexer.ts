/**
 * Benchmark of the indexer's crawl + extract stages on a synthetic build of about 5,000 pages,
 * made by copying the real site/build's pages under numbered folders. Prints pages per second
 * and peak RSS; each measured crawl runs in a fresh child process so its RSS is its own.
 * Two modes: `stream` is what `docs-indexer crawl --out FILE` does (records serialised page by
 * page, none kept); `collect` is the library's default `crawl()` (every record kept in memory,
 * as `push` needs them for its diff).
 *
 *   node --import tsx bench/indexer.ts [--pages 5000] [--concurrency 8] [--source site/build]
 *
 * Targets (issue 7, on the 2-core machine): ≥ 400 pages/s from a folder, peak RSS < 300 MB.
 * `runIndexerBench()` is exported for bench/run.ts.
 */
import {spawn} from 'node:child_process';
import {mkdir, mkdtemp, readFile, readdir, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');

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
}

export type IndexerBenchMode = 'stream' | 'collect';

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
      await writeFile(target, contents[i] as string);
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

/** Runs in the child: one crawl of the folder, then a JSON report on stdout. */
async function child(folder: string, mode: IndexerBenchMode, concurrency: number | undefined): Promise<void> {
  const {crawl} = await import('../indexer/src/crawl.ts');
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let bytes = 0;
  let walked = 0;
  const result = await crawl(folder, {
    ...(concurrency ? {concurrency} : {}),
    ...(mode === 'stream'
      ? {
          collect: false,
          // What `crawl --out` writes: each page's records as JSON text.
          onPage: ({json}: {json: string}) => {
            bytes += json.length;
          },
        }
      : {}),
  });
  // What `push` does with the collected records: walks them all, a page at a time.
  if (mode === 'collect') for (const page of result.store.pages()) walked += page.length;
  if (mode === 'collect' && walked !== result.recordCount) throw new Error(`walked ${walked} of ${result.recordCount} records`);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const report: ChildReport = {
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    pages: result.pages + result.skipped,
    records: result.recordCount,
    seconds,
    peakRssMB: process.resourceUsage().maxRSS / 1024,
    jsonBytes: bytes,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

export async function runIndexerBench(options: IndexerBenchOptions = {}): Promise<IndexerBenchResult> {
  const log = options.log ?? (() => {});
  const pages = options.pages ?? 5000;
  const source = options.source ?? path.join(repoRoot, 'site', 'build');
  log(`indexer: making a synthetic build of ${pages} pages from ${path.relative(process.cwd(), source) || source}…`);
  const folder = await makeSyntheticBuild(source, pages);
  try {
    const runs: IndexerBenchRun[] = [];
    for (const mode of ['stream', 'collect'] as const) {
      log(`indexer: crawling it, ${mode} mode (child process)…`);
      const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', folder, '--mode', mode];
      if (options.concurrency) args.push('--concurrency', String(options.concurrency));
      const report = await new Promise<ChildReport>((resolve, reject) => {
        const proc = spawn(process.execPath, args, {cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit']});
        let stdout = '';
        proc.stdout.on('data', (d) => (stdout += d));
        proc.on('error', reject);
        proc.on('close', (code) => {
          if (code !== 0) reject(new Error(`benchmark child exited with ${code}`));
          else resolve(JSON.parse(stdout) as ChildReport);
        });
      });
      const pagesPerSecond = report.pages / report.seconds;
      runs.push({
        mode,
        pages: report.pages,
        records: report.records,
        seconds: Math.round(report.seconds * 100) / 100,
        pagesPerSecond: Math.round(pagesPerSecond),
        pagesPerCpuSecond: Math.round(report.pages / report.cpuSeconds),
        peakRssMB: Math.round(report.peakRssMB),
        meetsTargets: pagesPerSecond >= INDEXER_TARGETS.pagesPerSecond && report.peakRssMB < INDEXER_TARGETS.peakRssMB,
      });
    }
    return {name: 'indexer crawl+extract (folder)', targets: INDEXER_TARGETS, runs};
  } finally {
    await rm(folder, {recursive: true, force: true});
  }
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const concurrency = flag('--concurrency') ? Number(flag('--concurrency')) : undefined;
  const childFolder = flag('--child');
  if (childFolder) {
    await child(childFolder, flag('--mode') === 'collect' ? 'collect' : 'stream', concurrency);
  } else {
    const result = await runIndexerBench({
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
          `peak RSS ${run.peakRssMB} MB (target < ${result.targets.peakRssMB})\n`,
      );
    }
  }
}
