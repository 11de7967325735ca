/**
 * `npm run bench -- --overrides`: what each override of a framework internal gains, measured.
 *
 * The site lists its overrides in a JSON it exports as `site/overrides` (an array of
 * `{name, ...}`, or `{overrides: [...]}`); site-variant.config.ts builds it without the ones named
 * in env `SITE_WITHOUT` (comma-separated; those marked `"switchable": false` cannot be left out). For each
 * override (or those of `--override-names a,b`) the site is built once without it
 * (site/build-without-<name>) and set beside the full build (site/build; made unless
 * `--skip-build` finds it), on /docs/introduction:
 * - first-visit JavaScript (gzip KB transferred, from Lighthouse's network records);
 * - Lighthouse mobile (the plain command, lighthouse.ts): performance score and TBT;
 * - hydration under Lighthouse's mobile throttling (interactivity.ts), cold loads;
 * - work counted, not timed, in one more load of /docs/introduction, /docs/v2/measurement and
 *   /docs/v2/authorization (interactivity.ts, HydrationWork): DOM nodes, requests, React commits and fibers mounted by
 *   hydration and 3 s after it; figures a busy machine does not move;
 * Lighthouse runs and loads are interleaved (round i of every build before round i + 1 of any,
 * each round starting one build further on),
 * N of each (`--override-runs`, 5). Figures are medians; each gain is "without / with", so above
 * 1 means the override helps, with its 95 % interval (interval.ts: rounds resampled in pairs); a
 * gain whose interval holds 1 is "within noise"; an override that no figure shows helping (no
 * bytes or counted work saved, TBT and hydration within noise or better without it) is marked
 * "no gain measured: remove"; one that helps a figure while another is better without it (an
 * interval wholly below 1) is marked "trade", naming the cost, for a person to weigh. A table is printed and the JSON saved
 * as indexer/bench/results/overrides.json, for site/OVERRIDES.md.
 */
import {existsSync, statSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {siteBuild} from './build.ts';
import {measureHydration, measureHydrationWork, type HydrationFigures, type HydrationWork} from './interactivity.ts';
import {interleavedLighthouse, plainCommand, type MedianLighthouse} from './lighthouse.ts';
import {holdsOne, ratioInterval} from './interval.ts';
import {serveBuild, type StaticServer} from './serve.ts';
import {RESULTS, SITE} from './workspaces.ts';

/** The config that builds the site with overrides left out (SITE_WITHOUT). */
const VARIANT_CONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), 'site-variant.config.ts');

const PAGE = '/docs/introduction';
/**
 * Pages whose work is counted: the one the timings are taken on, the other page of the
 * Lighthouse budgets, and one whose article React hydrates (it has diagrams: their code blocks
 * are hydrated with it), so that overrides of code blocks show what they do.
 */
const WORK_PAGES = [PAGE, '/docs/v2/measurement', '/docs/v2/authorization'];
const KB = 1024;
const FULL = '(all overrides)';

export interface Override {
  name: string;
  [key: string]: unknown;
}

export interface OverrideGain {
  name: string;
  build: string;
  jsKB: number;
  lighthouse: {performance: number; tbtMs: number; each: {performance: number; tbtMs: number}[]};
  hydratedMs: number;
  hydratedEach: number[];
  /** Work counted in an untimed load of each of WORK_PAGES (layouts, style recalculations, nodes, requests, React commits and fibers). */
  work: Record<string, HydrationWork>;
  /** without / with: above 1, the override helps. */
  gain: {jsKB: number; jsRatio: number | null; tbtRatio: number | null; hydratedRatio: number | null; performance: number};
  /** 95 % intervals of the TBT and hydration gains (null with fewer than 3 rounds). */
  interval: {tbt: [number, number] | null; hydrated: [number, number] | null};
  /** The gain's interval holds 1: the two builds cannot be told apart. */
  withinNoise: {tbt: boolean; hydrated: boolean};
  /** The counters that differ from the full build's (without − with); script time left out: it is a time. */
  workDiff: Record<string, number>;
  /**
   * No figure shows the override helping: it saves no bytes (0.3 KB or more), no counted work
   * (more fibers, nodes, requests or commits without it), and TBT and hydration without it are
   * within noise or better.
   */
  noGain: boolean;
  /** The timings whose gain interval lies wholly below 1: the override costs them. */
  costs: ('tbt' | 'hydrated')[];
}

export interface OverridesResult {
  date: string;
  page: string;
  runs: number;
  lighthouseCommand: string;
  full: Omit<OverrideGain, 'gain' | 'interval' | 'withinNoise' | 'workDiff' | 'noGain' | 'costs'>;
  overrides: OverrideGain[];
}

/**
 * The site's list of overrides that SITE_WITHOUT can switch off: `site/overrides` (its
 * overrides.json), an array of `{name, ...}` or an object holding one as `overrides`; entries
 * marked `"switchable": false` are left out (they cannot be built without).
 */
export function loadOverrides(): Override[] {
  const require = createRequire(path.join(SITE, 'package.json'));
  let list: unknown;
  try {
    list = require('site/overrides');
  } catch {
    const file = path.join(SITE, 'overrides.json');
    if (!existsSync(file)) throw new Error('the site exports no override list (site/overrides): nothing to measure');
    list = require(file);
  }
  const entries: unknown = Array.isArray(list) ? list : (list as {overrides?: unknown} | null)?.overrides;
  if (!Array.isArray(entries) || !entries.every((o) => typeof (o as Override | null)?.name === 'string')) {
    throw new Error('site/overrides is not a list of {name: string, ...}');
  }
  return (entries as Override[]).filter((o) => o.switchable !== false);
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : null);

export async function benchOverrides(options: {skipBuild: boolean; names?: string; runs?: string; log: (line: string) => void}): Promise<OverridesResult> {
  const {log} = options;
  const runs = Number(options.runs ?? 5);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--override-runs takes a whole number of at least 1');
  const all = loadOverrides();
  const wanted = options.names?.split(',').map((n) => n.trim()).filter(Boolean);
  const unknown = wanted?.filter((n) => !all.some((o) => o.name === n)) ?? [];
  if (unknown.length) throw new Error(`--override-names: no override named ${unknown.join(', ')} (site/overrides lists ${all.map((o) => o.name).join(', ')})`);
  const chosen = wanted ? all.filter((o) => wanted.includes(o.name)) : all;
  if (!chosen.length) throw new Error('site/overrides lists no override');

  // One build per override, and the full build.
  const builds = new Map<string, string>([[FULL, 'build']]);
  for (const o of chosen) builds.set(o.name, `build-without-${slug(o.name)}`);
  // With --skip-build, a build found is reused if it is not older than site/build.
  const made = (dir: string) => path.join(SITE, dir, 'index.html');
  const fullBuilt = existsSync(made('build')) ? statSync(made('build')).mtimeMs : Infinity;
  for (const [name, dir] of builds) {
    if (options.skipBuild && existsSync(made(dir)) && (name === FULL || statSync(made(dir)).mtimeMs >= fullBuilt)) continue;
    if (name === FULL) await siteBuild(dir, 'with every override', {}, [], log);
    else await siteBuild(dir, `without ${name} (SITE_WITHOUT=${name})`, {BENCH_SITE_DIR: SITE, SITE_WITHOUT: name}, ['--config', VARIANT_CONFIG], log);
  }

  const servers = new Map<string, StaticServer>();
  try {
    for (const [name, dir] of builds) servers.set(name, await serveBuild(path.join(SITE, dir)));
    const urls = Object.fromEntries([...servers].map(([name, server]) => [name, `${server.url}${PAGE}`]));
    log(`overrides: Lighthouse mobile on ${PAGE}, ${runs} run(s) per build, interleaved; each run: ${plainCommand(urls[FULL]!, 'mobile')}`);
    const lighthouse = await interleavedLighthouse(urls, 'mobile', runs, log);
    log(`overrides: hydration, ${runs} throttled cold load(s) per build, interleaved…`);
    const hydration = await measureHydration(urls, runs, log);
    log(`overrides: work up to hydration and 3 s after it, counted in one more (untimed) load per build of ${WORK_PAGES.join(', ')}…`);
    const work: Record<string, Record<string, HydrationWork>> = Object.fromEntries([...servers.keys()].map((name) => [name, {}]));
    for (const page of WORK_PAGES) {
      const counted = await measureHydrationWork(Object.fromEntries([...servers].map(([name, server]) => [name, `${server.url}${page}`])), log);
      for (const [name, w] of Object.entries(counted)) work[name]![page] = w;
    }

    const figures = (name: string): Omit<OverrideGain, 'gain' | 'interval' | 'withinNoise' | 'workDiff' | 'noGain' | 'costs'> => {
      const lh = lighthouse[name] as MedianLighthouse;
      const h = hydration[name] as HydrationFigures;
      return {
        name,
        build: `site/${builds.get(name)}`,
        jsKB: Math.round((lh.scriptBytes / KB) * 10) / 10,
        lighthouse: {performance: lh.performance, tbtMs: Math.round(lh.tbtMs), each: lh.each.map(({performance, tbtMs}) => ({performance, tbtMs}))},
        hydratedMs: Math.round(h.hydratedMs),
        hydratedEach: h.each,
        work: work[name]!,
      };
    };
    const full = figures(FULL);
    const overrides = chosen.map(({name}) => {
      const f = figures(name);
      const workDiff = countedDifference(f.work, full.work);
      const interval = {
        tbt: ratioInterval(
          f.lighthouse.each.map((e) => e.tbtMs),
          full.lighthouse.each.map((e) => e.tbtMs),
        ),
        hydrated: ratioInterval(f.hydratedEach, full.hydratedEach),
      };
      const withinNoise = {tbt: holdsOne(interval.tbt), hydrated: holdsOne(interval.hydrated)};
      const costs = (['tbt', 'hydrated'] as const).filter((k) => interval[k] !== null && interval[k]![1] < 1);
      return {
        ...f,
        gain: {
          jsKB: Math.round((f.jsKB - full.jsKB) * 10) / 10,
          jsRatio: ratio(f.jsKB, full.jsKB),
          tbtRatio: ratio(f.lighthouse.tbtMs, full.lighthouse.tbtMs),
          hydratedRatio: ratio(f.hydratedMs, full.hydratedMs),
          performance: full.lighthouse.performance - f.lighthouse.performance,
        },
        interval,
        withinNoise,
        workDiff,
        noGain:
          f.jsKB - full.jsKB < 0.3 &&
          !Object.values(workDiff).some((d) => d > 0) &&
          (withinNoise.tbt || f.lighthouse.tbtMs <= full.lighthouse.tbtMs) &&
          (withinNoise.hydrated || f.hydratedMs <= full.hydratedMs),
        costs,
      };
    });
    const result: OverridesResult = {
      date: new Date().toISOString(),
      page: PAGE,
      runs,
      lighthouseCommand: plainCommand(`http://localhost:PORT${PAGE}`, 'mobile'),
      full,
      overrides,
    };
    console.log(formatOverrides(result));
    await mkdir(RESULTS, {recursive: true});
    const file = path.join(RESULTS, 'overrides.json');
    await writeFile(file, JSON.stringify(result, null, 2) + '\n');
    console.log(`\n(saved as ${path.relative(process.cwd(), file)})`);
    return result;
  } finally {
    for (const server of servers.values()) await server.close();
  }
}

/**
 * The counters a verdict reads. Layouts and style recalculations are left out: how many a page
 * makes depends on how its frames fall (4 to 8 on the same build, one load to the next).
 */
const COUNTED = ['nodes', 'requests', 'commits', 'fibersAtHydration', 'fibersMounted'] as const;

/**
 * The counters of `without` that differ from `full` by more than 2% (and by more than 1), as
 * without − with.
 */
export function countedDifference(without: Record<string, HydrationWork>, full: Record<string, HydrationWork>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [page, w] of Object.entries(without)) {
    const f = full[page];
    if (!f) continue;
    for (const key of COUNTED) {
      const d = w[key] - f[key];
      if (Math.abs(d) > 1 && Math.abs(d) > 0.02 * Math.max(1, f[key])) out[`${page.split('/').pop()} ${key}`] = d;
    }
  }
  return out;
}

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

/** The table: one row per override, its build's figures and its gain (without / with). */
/** "remove" when nothing is gained, "trade" when a timing is better without the override, else "keep". */
function verdict(o: OverrideGain): string {
  if (o.noGain) return 'no gain measured: remove';
  const names = {tbt: 'TBT', hydrated: 'hydration'};
  return o.costs.length ? `trade: ${o.costs.map((k) => names[k]).join(', ')} better without it` : 'keep';
}

export function formatOverrides(r: OverridesResult): string {
  const x = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(2)}×`);
  const within = (i: [number, number] | null) => (i === null ? '' : ` (${i[0].toFixed(2)}–${i[1].toFixed(2)})`);
  const out = [
    `Override gains on ${r.page} (median of ${r.runs}, interleaved; gain = without / with, above 1: the override helps, with its 95 % interval; mobile throttling)`,
    '| override | JS gzip KB (Δ) | JS gain | Lighthouse perf (Δ) | TBT ms | TBT gain | hydrated ms | hydration gain | counted work without it (Δ) | script ms | within noise | verdict |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${FULL} | ${r.full.jsKB.toFixed(1)} | | ${r.full.lighthouse.performance} | ${r.full.lighthouse.tbtMs} (runs ${r.full.lighthouse.each.map((e) => e.tbtMs).join(', ')}) | | ${r.full.hydratedMs} (runs ${r.full.hydratedEach.join(', ')}) | | ` +
      `${Object.entries(r.full.work).map(([page, w]) => `${page.split('/').pop()}: ${COUNTED.map((k) => `${k} ${w[k]}`).join(', ')}`).join('; ')} | ${Object.values(r.full.work).map((w) => w.scriptMs).join(' / ')} | | |`,
  ];
  for (const o of r.overrides) {
    const noise = [o.withinNoise.tbt ? 'TBT' : '', o.withinNoise.hydrated ? 'hydration' : ''].filter(Boolean).join(', ') || 'no';
    out.push(
      `| ${o.name} | ${o.jsKB.toFixed(1)} (${o.gain.jsKB >= 0 ? '+' : ''}${o.gain.jsKB.toFixed(1)}) | ${x(o.gain.jsRatio)} | ${o.lighthouse.performance} (${-o.gain.performance >= 0 ? '+' : ''}${-o.gain.performance}) | ` +
        `${o.lighthouse.tbtMs} | ${x(o.gain.tbtRatio)}${within(o.interval.tbt)} | ${o.hydratedMs} | ${x(o.gain.hydratedRatio)}${within(o.interval.hydrated)} | ` +
        `${Object.entries(o.workDiff).map(([k, d]) => `${k} ${signed(d)}`).join(', ') || 'same'} | ${Object.values(o.work).map((w) => w.scriptMs).join(' / ')} | ${noise} | ${verdict(o)} |`,
    );
  }
  return out.join('\n');
}
