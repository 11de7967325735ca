/**
 * Lighthouse as anyone runs it: the plain `lighthouse` command of the repository (the CLI of the
 * `lighthouse` package, default settings: mobile, simulated throttling), on Debian's Chromium
 * (CHROME_PATH; never a downloaded browser), one fresh browser and profile per run, its JSON report
 * read from stdout. The bench runs exactly what `plainCommand()` prints, so a reader can run the same
 * command by hand on the same served build and compare (README, "Benchmarks").
 *
 * Why not the Node API with the browser tests' launch flags, as before: the settings were the same
 * (the two reports' `configSettings` differ only in `output`, `channel` and an `onlyCategories`
 * that lists the default four), so the two never measured different things; what made the bench's
 * 100 / 100 / 99 (TBT 4 / 56 / 84 ms) disagree with the plain command's 87 / 86 (TBT about 515 ms)
 * is that Lighthouse's default throttling is simulated: it multiplies the main-thread tasks it
 * observed on this machine, unthrottled, by 4. On a shared 2-core machine those tasks are as long
 * as the machine is busy (Lighthouse's own `benchmarkIndex` went from about 2,000 to 180 between
 * two runs a minute apart), so one page's TBT spans 110 to 1,170 ms, by either way of running.
 * Running the command itself removes the doubt about settings; the stock template measured in the
 * same rounds, interleaved, gives a ratio that the machine's load affects far less than the raw
 * figure; and each run's benchmarkIndex is kept so that a reader sees how busy the machine was.
 */
import {spawn} from 'node:child_process';
import {createRequire} from 'node:module';
import path from 'node:path';
import {CHROME_PATH} from 'site/chrome';

export {CHROME_PATH};

/**
 * Chromium's flags for Lighthouse: headless, and no sandbox (the bench runs as root in CI's
 * containers, where Chromium refuses to start sandboxed). Nothing else: the plain command.
 */
export const LIGHTHOUSE_CHROME_FLAGS = '--headless=new --no-sandbox';

const require = createRequire(import.meta.url);
/** The `lighthouse` bin of the installed package (what `npx lighthouse` runs). */
const LIGHTHOUSE_CLI = path.join(path.dirname(require.resolve('lighthouse/package.json')), 'cli', 'index.js');

export type FormFactor = 'mobile' | 'desktop';

export interface ScriptTransfer {
  url: string;
  /** Bytes transferred (gzipped). */
  bytes: number;
}

export interface LighthouseRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Bytes of JavaScript transferred (gzipped) while the page loaded. */
  scriptBytes: number;
  /** Each script of the load and its bytes transferred. */
  scripts: ScriptTransfer[];
  /** Requests to any host other than the one serving the page. */
  foreignRequests: string[];
  /** Failed audits of the 100-point categories, for the report. */
  failedAudits: string[];
  /** Lighthouse's measure of the machine's speed at that moment (higher is faster; ~1,000+ is a quiet desktop). */
  benchmarkIndex: number;
  /** The longest main-thread tasks (simulated, ms) and what ran them. */
  longTasks: string[];
}

type NetworkItem = {url: string; resourceType?: string; transferSize?: number};
interface Lhr {
  runtimeError?: {message: string};
  categories: Record<string, {score: number | null; auditRefs: {id: string; weight: number}[]} | undefined>;
  audits: Record<string, {score: number | null; numericValue?: number; details?: unknown} | undefined>;
  environment?: {benchmarkIndex?: number};
}

/** The argument list of the plain command for `url` (mobile: Lighthouse's defaults; desktop: its desktop preset). */
export function lighthouseArgs(url: string, formFactor: FormFactor): string[] {
  return [
    url,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    `--chrome-flags=${LIGHTHOUSE_CHROME_FLAGS}`,
    ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
  ];
}

/** The same command, as a reader types it. */
export function plainCommand(url: string, formFactor: FormFactor): string {
  const desktop = formFactor === 'desktop' ? ' --preset=desktop' : '';
  return `CHROME_PATH=${CHROME_PATH} npx lighthouse ${url} --chrome-flags="${LIGHTHOUSE_CHROME_FLAGS}"${desktop} --output=json --output-path=report.json`;
}

function runCli(url: string, formFactor: FormFactor): Promise<Lhr> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LIGHTHOUSE_CLI, ...lighthouseArgs(url, formFactor)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {...process.env, CHROME_PATH},
    });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`lighthouse ${url} exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}`));
        return;
      }
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as Lhr);
      } catch {
        reject(new Error(`lighthouse ${url} printed no JSON report`));
      }
    });
  });
}

export async function runLighthouse(url: string, formFactor: FormFactor): Promise<LighthouseRun> {
  const lhr = await runCli(url, formFactor);
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const items = (lhr.audits['network-requests']?.details as {items?: NetworkItem[]} | undefined)?.items ?? [];
  const host = new URL(url).host;
  const failedAudits = ['accessibility', 'best-practices', 'seo'].flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${category}:${ref.id}`),
  );
  const scripts = items
    .filter((i) => i.resourceType === 'Script')
    .map((i) => ({url: i.url, bytes: i.transferSize ?? 0}));
  const tasks = (lhr.audits['long-tasks']?.details as {items?: {url?: string; duration: number}[]} | undefined)?.items ?? [];
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    scriptBytes: scripts.reduce((sum, s) => sum + s.bytes, 0),
    scripts,
    foreignRequests: items.map((i) => i.url).filter((u) => /^(https?|wss?):/.test(u) && new URL(u).host !== host),
    failedAudits,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? NaN,
    longTasks: tasks.slice(0, 3).map((t) => `${shortName(t.url ?? '?')} ${Math.round(t.duration)}`),
  };
}

/** A script's file name, or the page's path for the document itself. */
export function shortName(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname.startsWith('/assets/') ? path.basename(u.pathname) : u.pathname;
  } catch {
    return url;
  }
}

/** The middle value (the mean of the two middle ones for an even count); NaN for no values. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid];
  if (upper === undefined) return NaN;
  const lower = sorted[mid - 1];
  return sorted.length % 2 || lower === undefined ? upper : (lower + upper) / 2;
}

export interface MedianLighthouse extends LighthouseRun {
  runs: number;
  /** Each run's performance score and TBT, in the order run: the spread is the machine's noise. */
  each: {performance: number; tbtMs: number; benchmarkIndex: number}[];
}

/** Median of each figure over runs of one page (the scripts of the first run: they do not change). */
export function medianOf(all: readonly LighthouseRun[]): MedianLighthouse {
  const pick = (f: (r: LighthouseRun) => number) => median(all.map(f));
  const first = all[0];
  if (!first) throw new Error('no Lighthouse run to take the median of');
  return {
    runs: all.length,
    performance: pick((r) => r.performance),
    accessibility: pick((r) => r.accessibility),
    bestPractices: pick((r) => r.bestPractices),
    seo: pick((r) => r.seo),
    lcpMs: pick((r) => r.lcpMs),
    tbtMs: pick((r) => r.tbtMs),
    cls: pick((r) => r.cls),
    scriptBytes: pick((r) => r.scriptBytes),
    scripts: first.scripts,
    foreignRequests: [...new Set(all.flatMap((r) => r.foreignRequests))],
    failedAudits: [...new Set(all.flatMap((r) => r.failedAudits))],
    benchmarkIndex: pick((r) => r.benchmarkIndex),
    longTasks: first.longTasks,
    each: all.map((r) => ({performance: r.performance, tbtMs: Math.round(r.tbtMs), benchmarkIndex: Math.round(r.benchmarkIndex)})),
  };
}

/**
 * The list started at its (round mod length)-th entry: round 0 as given, round 1 from the second
 * entry, and so on. The first run of a round meets a machine that has just been idle or busy
 * differently from the later ones; rotating spreads that over every build.
 */
export function rotated<T>(list: readonly T[], round: number): T[] {
  const start = list.length ? round % list.length : 0;
  return [...list.slice(start), ...list.slice(0, start)];
}

/**
 * Lighthouse on several URLs (one per build, or per page and build), `runs` rounds, interleaved:
 * round i of every URL before round i + 1 of any, so a busy moment of the machine falls on all,
 * and each round starts one URL further on (`rotated`), so no build always runs first.
 * Returns the median of each URL's runs, by key.
 */
export async function interleavedLighthouse(
  urls: Record<string, string>,
  formFactor: FormFactor,
  runs: number,
  log: (line: string) => void = () => {},
): Promise<Record<string, MedianLighthouse>> {
  const all = new Map<string, LighthouseRun[]>(Object.keys(urls).map((key) => [key, []]));
  for (let i = 0; i < runs; i++) {
    for (const [key, url] of rotated(Object.entries(urls), i)) {
      const run = await runLighthouse(url, formFactor);
      log(
        `  ${formFactor} ${key} run ${i + 1}/${runs}: performance ${run.performance}, TBT ${Math.round(run.tbtMs)} ms, LCP ${Math.round(run.lcpMs)} ms, ` +
          `benchmarkIndex ${Math.round(run.benchmarkIndex)}; longest tasks: ${run.longTasks.join(', ')}`,
      );
      all.get(key)!.push(run);
    }
  }
  return Object.fromEntries([...all].map(([key, list]) => [key, medianOf(list)]));
}
