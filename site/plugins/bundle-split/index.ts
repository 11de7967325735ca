import {fileURLToPath} from 'node:url';
import type {Plugin} from '@docusaurus/types';
import {siteHas} from '../overrides';

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

/**
 * CommonJS packages imported at the top of a module the bundle keeps, for an export nothing uses:
 * react-router's `withRouter` (which no code of Docusaurus, its themes or the site calls) is the
 * only user of hoist-non-react-statics, which requires react-is. Without a `sideEffects` field
 * the bundler must keep a CommonJS module that is imported, used or not; these two only define
 * functions, so they are declared free of side effects and drop out when unused.
 */
export const SIDE_EFFECT_FREE = /[\\/]node_modules[\\/](hoist-non-react-statics|react-is)[\\/]/;

export default function bundleSplitPlugin(): Plugin {
  return {
    name: 'bundle-split',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      // Each part is an override of site/overrides.json that SITE_WITHOUT can switch off.
      return {
        module: {
          rules: [
            ...(siteHas('unused-cjs-dropped') ? [{test: SIDE_EFFECT_FREE, sideEffects: false}] : []),
            ...(siteHas('tslib-one-helper') ? [{test: UTILS_COMMON, resolve: {alias: {tslib$: TSLIB_ONE_HELPER}}}] : []),
            ...(siteHas('strip-server-config')
              ? [
                  {
                    test: /[\\/]\.docusaurus[\\/]docusaurus\.config\.mjs$/,
                    use: [{loader: fileURLToPath(new URL('./strip-server-config.cjs', import.meta.url))}],
                  },
                ]
              : []),
          ],
        },
        ...(siteHas('diagrams-chunk')
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
