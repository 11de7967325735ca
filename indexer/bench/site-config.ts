/**
 * The site's Docusaurus config as the bench's own config files (site-variant.config.ts,
 * source-maps.config.ts) start from: `createSiteConfig(variant)` of the site's
 * site-config.ts, loaded from BENCH_SITE_DIR (the bench finds the site's folder by package
 * name), with the plugins and themes the site names by a relative path made absolute: Docusaurus
 * resolves those from the config file's folder, which is this one.
 */
import path from 'node:path';
import type {Config} from '@docusaurus/types';

/** What the site's `SiteVariant` holds (site/site-config.ts). */
export interface SiteVariant {
  without?: readonly string[];
  stockTemplate?: boolean;
  noEarlyAnswers?: boolean;
}

export async function loadSiteConfig(variant: SiteVariant = {}): Promise<Config> {
  const siteDir = process.env.BENCH_SITE_DIR;
  if (!siteDir) throw new Error('BENCH_SITE_DIR is not set: this config is for the bench only');
  const loaded = (await import(path.join(siteDir, 'site-config.ts'))) as {createSiteConfig?: (variant: SiteVariant) => Config};
  if (typeof loaded.createSiteConfig !== 'function') throw new Error(`${siteDir}/site-config.ts exports no createSiteConfig`);
  const site = loaded.createSiteConfig(variant);
  const fromSite = <T>(entry: T): T => {
    if (typeof entry === 'string' && entry.startsWith('.')) return path.resolve(siteDir, entry) as T;
    if (Array.isArray(entry) && typeof entry[0] === 'string' && entry[0].startsWith('.')) return [path.resolve(siteDir, entry[0]), ...entry.slice(1)] as T;
    return entry;
  };
  return {...site, themes: (site.themes ?? []).map(fromSite), plugins: (site.plugins ?? []).map(fromSite)};
}
