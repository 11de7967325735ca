/**
 * The site built other than as published, for the bench's comparisons only
 * (`docusaurus build --config <this file>`, with BENCH_SITE_DIR set; run.ts and overrides.ts do):
 * - SITE_WITHOUT=<name>,<name>: the named overrides of site/overrides.json left out, the stock
 *   Docusaurus behaviour instead (overrides.ts measures each one's gain that way). An unknown name,
 *   or one that cannot be left out, stops the build with a one-line error;
 * - STOCK_PAGE_TEMPLATE=1: Docusaurus's own page template, no route scripts and no early search
 *   box (the baseline of run.ts's side-by-side figures);
 * - NO_EARLY_ANSWERS=1: the early search box without its own answers.
 */
import path from 'node:path';
import type {Config} from '@docusaurus/types';
import {loadSiteConfig} from './site-config.ts';

interface OverridesModule {
  parseWithout(value: string | undefined): ReadonlySet<string>;
}

export default async function createConfig(): Promise<Config> {
  const siteDir = process.env.BENCH_SITE_DIR;
  if (!siteDir) throw new Error('BENCH_SITE_DIR is not set: this config is for the bench only');
  const {parseWithout} = (await import(path.join(siteDir, 'plugins/overrides.ts'))) as OverridesModule;
  let without: string[];
  try {
    without = [...parseWithout(process.env.SITE_WITHOUT)];
  } catch (error) {
    console.error(`[ERROR] ${(error as Error).message}`);
    process.exit(1);
  }
  return loadSiteConfig({without, stockTemplate: Boolean(process.env.STOCK_PAGE_TEMPLATE), noEarlyAnswers: Boolean(process.env.NO_EARLY_ANSWERS)});
}
