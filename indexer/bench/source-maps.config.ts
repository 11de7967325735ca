/**
 * The site's own Docusaurus config with one plugin added: the browser bundle gets hidden source
 * maps (`.map` files beside the scripts, no reference in them), so that breakdown.ts can say which
 * package each byte of the first visit's JavaScript comes from. Used only by the bench
 * (`docusaurus build --config <this file> --out-dir build-source-maps`), never for the site itself;
 * the site's folder comes from BENCH_SITE_DIR (the bench finds it by package name).
 */
import path from 'node:path';
import type {Config} from '@docusaurus/types';

export default async function createConfig(): Promise<Config> {
  const siteDir = process.env.BENCH_SITE_DIR;
  if (!siteDir) throw new Error('BENCH_SITE_DIR is not set: this config is for the bench only');
  const loaded = (await import(path.join(siteDir, 'docusaurus.config.ts'))) as {default: Config | (() => Config | Promise<Config>)};
  const site = typeof loaded.default === 'function' ? await loaded.default() : loaded.default;
  // Docusaurus resolves a plugin named by a relative path from the config file's folder: the
  // site's are relative to the site.
  const fromSite = <T>(entry: T): T => {
    if (typeof entry === 'string' && entry.startsWith('.')) return path.resolve(siteDir, entry) as T;
    if (Array.isArray(entry) && typeof entry[0] === 'string' && entry[0].startsWith('.')) return [path.resolve(siteDir, entry[0]), ...entry.slice(1)] as T;
    return entry;
  };
  return {
    ...site,
    themes: (site.themes ?? []).map(fromSite),
    plugins: [
      ...(site.plugins ?? []).map(fromSite),
      () => ({
        name: 'bench-source-maps',
        configureWebpack: (_config: unknown, isServer: boolean) => (isServer ? {} : {devtool: 'hidden-source-map' as const}),
      }),
    ],
  };
}
