/**
 * Framework modules this site replaces through webpack aliases, each one an entry of
 * site/overrides.json (site/OVERRIDES.md) that a build may leave out (`without`):
 * - `link-on-intent`: `@docusaurus/Link` aliased to src/link-on-intent, a route prefetched on hover
 *   or touch only, not for every link that scrolls into view (Link is not a theme component, and
 *   Docusaurus's own aliases name each `@docusaurus/<module>` apart, so the alias replaces exactly it);
 * - the swizzled theme components (src/theme) of the overrides left out: `@theme/<name>` of each
 *   `themeComponents` entry goes back to the theme's own file (`@theme-original/<name>`).
 */
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {OVERRIDES, keeps} from './overrides';

export interface FrameworkModulesOptions {
  /** Overrides this build leaves out. */
  without?: readonly string[];
}

export default function frameworkModules(context: LoadContext, options?: unknown): Plugin {
  const {without = []} = (options ?? {}) as FrameworkModulesOptions;
  const src = path.join(context.siteDir, 'src');
  return {
    name: 'framework-modules',
    configureWebpack(config) {
      keyCacheByOverrides(config, without);
      return {
        resolve: {
          alias: {
            ...(keeps(without, 'link-on-intent') ? {'@docusaurus/Link': path.join(src, 'link-on-intent', 'index.tsx')} : {}),
            ...stockThemeComponents(config.resolve?.alias, without),
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
function stockThemeComponents(aliases: unknown, without: readonly string[]): Record<string, string> {
  const map = (aliases && typeof aliases === 'object' ? aliases : {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const override of OVERRIDES) {
    if (keeps(without, override.name)) continue;
    for (const component of override.themeComponents ?? []) {
      const original = map[`@theme-original/${component}`];
      if (typeof original !== 'string') throw new Error(`without ${override.name}: no @theme-original/${component} to go back to`);
      out[`@theme/${component}`] = original;
    }
  }
  return out;
}

/**
 * Leaving overrides out changes aliases and loaders, which the bundler's persistent cache does not
 * see (its version covers theme aliases only): a build reusing another's cache would keep the
 * other's modules. One cache per set of left-out overrides: the set joins the cache's version.
 */
function keyCacheByOverrides(config: object, without: readonly string[]): void {
  if (without.length === 0) return;
  const key = [...new Set(without)].sort().join(',');
  const {cache: webpackCache, experiments} = config as {cache?: unknown; experiments?: {cache?: unknown}};
  for (const cache of [webpackCache, experiments?.cache]) {
    if (cache && typeof cache === 'object' && 'version' in cache) cache.version = `${String(cache.version)}-without:${key}`;
  }
}
