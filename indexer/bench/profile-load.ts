/**
 * One throttled cold load of a page, traced: when each resource finished downloading and what the
 * main thread did (long tasks, script evaluation per file), up to hydration. A diagnostic, printed.
 *
 *   node --import tsx indexer/bench/profile-load.ts URL [--runs N]
 */
import {chromium} from '@playwright/test';
import {CHROME_ARGS, CHROME_PATH} from 'site/chrome';
import {throttle} from './interactivity.ts';

/** The fields of a Chrome trace event that are read here. */
interface TraceEvent {
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: {data?: {url?: string; functionName?: string; documentLoaderURL?: string}; fileName?: string};
}

const url = process.argv[2]!;
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 1;
console.error(`profiling ${url}, ${runs} run(s)`);
const browser = await chromium.launch({executablePath: CHROME_PATH, args: CHROME_ARGS});
for (let r = 0; r < runs; r++) {
  const context = await browser.newContext({viewport: {width: 412, height: 823}});
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await throttle(cdp);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((res) => cdp.on('Tracing.tracingComplete', () => res()));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,v8.execute,disabled-by-default-devtools.timeline,blink.user_timing,loading',
    transferMode: 'ReportEvents',
  });
  await page.addInitScript(`new MutationObserver(() => { const h = document.documentElement; if (!window.__hyd && h.getAttribute('data-has-hydrated') === 'true') { window.__hyd = performance.now(); performance.mark('hydrated'); } }).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-has-hydrated']});`);
  await page.goto(url, {waitUntil: 'commit'});
  await page.waitForFunction('window.__hyd', null, {timeout: 60000, polling: 100});
  await page.waitForTimeout(300);
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
    const res = performance.getEntriesByType('resource').map((e) => {
      const t = e as PerformanceResourceTiming;
      return {name: t.name.replace(location.origin, ''), start: Math.round(t.startTime), end: Math.round(t.responseEnd), bytes: t.transferSize};
    });
    return {html: Math.round(n.responseEnd), dcl: Math.round(n.domContentLoadedEventEnd), fcp: Math.round(fcp ?? -1), hyd: Math.round((window as unknown as {__hyd: number}).__hyd), res};
  });
  await cdp.send('Tracing.end');
  await done;
  const navStart = events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'))?.ts
    ?? events.find((e) => e.name === 'navigationStart')?.ts;
  if (navStart === undefined) throw new Error('the trace holds no navigationStart event');
  const mainPid = events.find((e) => e.name === 'navigationStart')?.pid;
  const mainTid = events.find((e) => e.name === 'navigationStart')?.tid;
  const ms = (us: number) => Math.round((us - navStart) / 1000);
  console.log(`\n== ${url} run ${r + 1}: html ${nav.html} ms, fcp ${nav.fcp}, dcl ${nav.dcl}, hydrated ${nav.hyd}`);
  for (const x of nav.res) console.log(`  res ${x.start}→${x.end} ms ${x.bytes} B ${x.name}`);
  const tasks = events.filter((e) => e.pid === mainPid && e.tid === mainTid && e.name === 'RunTask' && (e.dur ?? 0) > Number(process.env.MIN_TASK_US ?? 30000) && e.ts >= navStart);
  const byUrl = new Map<string, number>();
  for (const e of events) {
    if (e.pid !== mainPid || e.tid !== mainTid || !e.dur) continue;
    if (e.name === 'EvaluateScript' || e.name === 'v8.compile' || e.name === 'v8.compileModule') {
      const u = (e.args?.data?.url ?? e.args?.fileName ?? '?').replace(/^https?:\/\/[^/]+/, '');
      byUrl.set(`${e.name} ${u}`, (byUrl.get(`${e.name} ${u}`) ?? 0) + e.dur / 1000);
    }
  }
  for (const [k, v] of byUrl) if (v > 5) console.log(`  cpu ${Math.round(v)} ms ${k}`);
  let total = 0;
  for (const t of tasks) {
    total += t.dur! / 1000;
    const inner = events
      .filter((e) => e.pid === mainPid && e.tid === mainTid && e.ts >= t.ts && e.ts < t.ts + t.dur! && (e.dur ?? 0) > t.dur! * 0.3 && e.name !== 'RunTask')
      .map((e) => `${e.name}${e.args?.data?.url ? ' ' + e.args.data.url.replace(/^https?:\/\/[^/]+/, '') : ''}${e.args?.data?.functionName ? ' fn=' + e.args.data.functionName : ''}`)
      .slice(0, 3);
    console.log(`  task @${ms(t.ts)} ms ${Math.round(t.dur! / 1000)} ms: ${inner.join(' | ')}`);
  }
  console.log(`  long tasks total ${Math.round(total)} ms`);
  await context.close();
}
await browser.close();
