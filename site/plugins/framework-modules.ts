/**
 * Docusaurus client modules replaced by this site's own, each one an entry of site/overrides.json
 * (site/OVERRIDES.md) that SITE_WITHOUT can switch off. The extension points are the framework's
 * for modules that are not theme components: webpack aliases.
 * - `head-after-hydration`: `@docusaurus/Head` aliased to src/head-after-hydration, the head left
 *   as the server wrote it while the first page hydrates;
 * - `progress-on-demand`: theme-classic's nprogress client module aliased to src/progress-on-demand,
 *   nprogress loaded when the first navigation starts, not in main.js;
 * - `link-on-intent`: `@docusaurus/Link` aliased to src/link-on-intent, no prefetch of every
 *   visible link's route.
 * Swizzled theme components (src/theme) are switched off here too: SITE_WITHOUT sends `@theme/<name>`
 * of each `themeComponents` entry back to the theme's own file (`@theme-original/<name>`).
 * Docusaurus's own aliases name each `@docusaurus/<module>` apart, so the aliases replace exactly
 * those. test/overrides.test.ts fails when an upgrade changes a stock module.
 */
import {createRequire} from 'node:module';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {OVERRIDES, siteHas, siteWithout} from './overrides';

const load = createRequire(import.meta.url);

/** theme-classic's nprogress client module, as its getClientModules names it (no extension). */
const STOCK_PROGRESS_BAR = path.join(path.dirname(load.resolve('@docusaurus/theme-classic')), 'nprogress');

export default function frameworkModules(context: LoadContext): Plugin {
  const src = path.join(context.siteDir, 'src');
  return {
    name: 'framework-modules',
    configureWebpack(config) {
      keyCacheByOverrides(config, siteWithout());
      return {
        resolve: {
          alias: {
            ...(siteHas('head-after-hydration') ? {'@docusaurus/Head': path.join(src, 'head-after-hydration', 'index.tsx')} : {}),
            ...(siteHas('progress-on-demand') ? {[STOCK_PROGRESS_BAR]: path.join(src, 'progress-on-demand', 'index.ts')} : {}),
            ...(siteHas('link-on-intent') ? {'@docusaurus/Link': path.join(src, 'link-on-intent', 'index.tsx')} : {}),
            ...stockThemeComponents(config.resolve?.alias),
          },
        },
      };
    },
  };
}

/**
 * `@theme/<name>` → the theme's own file, for the swizzled components of the overrides this build
 * leaves out. The keys already exist in Docusaurus's alias map, so they keep their place in its order.
 */
function stockThemeComponents(aliases: unknown): Record<string, string> {
  const map = (aliases && typeof aliases === 'object' ? aliases : {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const override of OVERRIDES) {
    if (siteHas(override.name)) continue;
    for (const component of override.themeComponents ?? []) {
      const original = map[`@theme-original/${component}`];
      if (typeof original !== 'string') throw new Error(`SITE_WITHOUT=${override.name}: no @theme-original/${component} to go back to`);
      out[`@theme/${component}`] = original;
    }
  }
  return out;
}

/**
 * SITE_WITHOUT changes aliases and loaders, which the bundler's persistent
 * cache does not see (its version covers theme aliases only): a build reusing another's cache
 * would keep the other's modules. One cache per set of switched-off overrides: the set joins the
 * cache's version.
 */
function keyCacheByOverrides(config: object, without: ReadonlySet<string>): void {
  if (without.size === 0) return;
  const key = [...without].sort().join(',');
  const {cache: webpackCache, experiments} = config as {cache?: unknown; experiments?: {cache?: unknown}};
  for (const cache of [webpackCache, experiments?.cache]) {
    if (cache && typeof cache === 'object' && 'version' in cache) cache.version = `${String(cache.version)}-without:${key}`;
  }
}
