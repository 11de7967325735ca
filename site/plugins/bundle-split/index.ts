import {fileURLToPath} from 'node:url';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {keeps} from '../overrides';

/**
 * Keeps code that only diagrams need out of the `common` chunk that every docs page loads.
 *
 * Docusaurus's `common` cache group takes any module shared by half the pages' async chunks.
 * Mermaid loads lazily (theme-mermaid imports it on first diagram), but its diagram chunks all
 * share @mermaid-js/parser (1.3 MB raw, about 143 KB gzipped): enough of them to pass the
 * threshold, so `common` carried the parser to every page, diagram or not. A cache group with a
 * higher priority gives those modules a chunk of their own, loaded with the first diagram.
 */
export const LAZY_ONLY_MODULES = /[\\/]node_modules[\\/](@mermaid-js[\\/]parser|langium|chevrotain|chevrotain-allstar)[\\/]/;

/**
 * `@docusaurus/utils-common` is CommonJS and `require`s tslib for one helper, `__importDefault`;
 * a `require` keeps every export, so the whole of tslib (4 KB gzip) rode in main.js. For that
 * package only, tslib resolves to a module with that one helper.
 */
const TSLIB_ONE_HELPER = fileURLToPath(new URL('./tslib-import-default.mjs', import.meta.url));
const UTILS_COMMON = /[\\/]node_modules[\\/]@docusaurus[\\/]utils-common[\\/]/;

export interface BundleSplitOptions {
  /** Overrides this build leaves out. */
  without?: readonly string[];
}

export default function bundleSplitPlugin(_context: LoadContext, {without = []}: BundleSplitOptions = {}): Plugin {
  return {
    name: 'bundle-split',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      // Each part is an override of site/overrides.json that a build may leave out.
      return {
        module: {
          rules: [...(keeps(without, 'tslib-one-helper') ? [{test: UTILS_COMMON, resolve: {alias: {tslib$: TSLIB_ONE_HELPER}}}] : [])],
        },
        ...(keeps(without, 'diagrams-chunk')
          ? {
              optimization: {
                splitChunks: {
                  cacheGroups: {
                    diagrams: {
                      name: 'diagrams',
                      test: LAZY_ONLY_MODULES,
                      chunks: 'async' as const,
                      priority: 45,
                      enforce: true,
                    },
                  },
                },
              },
            }
          : {}),
      };
    },
  };
}
