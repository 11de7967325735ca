/**
 * Lighthouse on Debian's Chromium (never a downloaded browser), launched by chrome-launcher with
 * the flags the browser tests use plus --headless. One fresh browser per run.
 */
import lighthouse, {type Flags, type Config} from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';
import {CHROME_ARGS, CHROME_PATH} from 'site/chrome';

export {CHROME_PATH};
/** The browser tests' launch flags (one list, in the site's `site/chrome`), plus headless. */
export const CHROME_FLAGS = [...CHROME_ARGS, '--headless=new'];

export type FormFactor = 'mobile' | 'desktop';

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
  /** Requests to any host other than the one serving the page. */
  foreignRequests: string[];
  /** Failed audits of the 100-point categories, for the report. */
  failedAudits: string[];
}

type NetworkItem = {url: string; resourceType?: string; transferSize?: number};

export async function runLighthouse(url: string, formFactor: FormFactor): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'silent'});
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    };
    const config: Config | undefined = formFactor === 'desktop' ? (desktopConfig as Config) : undefined;
    const result = await lighthouse(url, flags, config);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const {lhr} = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const items = ((lhr.audits['network-requests']?.details as {items?: NetworkItem[]} | undefined)?.items ?? []);
    const host = new URL(url).host;
    const failedAudits = ['accessibility', 'best-practices', 'seo'].flatMap((category) =>
      (lhr.categories[category]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${category}:${ref.id}`),
    );
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: numeric('largest-contentful-paint'),
      tbtMs: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      scriptBytes: items
        .filter((i) => i.resourceType === 'Script')
        .reduce((sum, i) => sum + (i.transferSize ?? 0), 0),
      foreignRequests: items
        .map((i) => i.url)
        .filter((u) => /^(https?|wss?):/.test(u) && new URL(u).host !== host),
      failedAudits,
    };
  } finally {
    chrome.kill();
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

/** Median of each figure over `runs` runs. */
export async function medianLighthouse(
  url: string,
  formFactor: FormFactor,
  runs: number,
  log: (line: string) => void = () => {},
): Promise<LighthouseRun & {runs: number}> {
  const all: LighthouseRun[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await runLighthouse(url, formFactor);
    log(`  ${formFactor} ${new URL(url).pathname} run ${i + 1}/${runs}: performance ${run.performance}, LCP ${Math.round(run.lcpMs)} ms`);
    all.push(run);
  }
  const pick = (f: (r: LighthouseRun) => number) => median(all.map(f));
  return {
    runs,
    performance: pick((r) => r.performance),
    accessibility: pick((r) => r.accessibility),
    bestPractices: pick((r) => r.bestPractices),
    seo: pick((r) => r.seo),
    lcpMs: pick((r) => r.lcpMs),
    tbtMs: pick((r) => r.tbtMs),
    cls: pick((r) => r.cls),
    scriptBytes: pick((r) => r.scriptBytes),
    foreignRequests: [...new Set(all.flatMap((r) => r.foreignRequests))],
    failedAudits: [...new Set(all.flatMap((r) => r.failedAudits))],
  };
}
