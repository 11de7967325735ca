import {fileURLToPath} from 'node:url';
import type {Plugin} from '@docusaurus/types';

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
 * The browser build renders with Preact's React compatibility layer instead of react-dom.
 *
 * react-dom was 55 % of main.js (207 of 374 KB minified); evaluating it is one long task on a
 * phone before anything can hydrate. preact/compat covers the API React 19 code uses here
 * (hooks, useSyncExternalStore, createPortal, hydrateRoot) in about a tenth of the size.
 * Server rendering stays on React, so the HTML is React's; dev mode stays on React too (Fast
 * Refresh needs it). Exact-match keys (`$`) leave deep imports such as `react-dom/server` alone.
 */
export const PREACT_ALIASES: Record<string, string> = {
  react$: 'preact/compat',
  'react-dom$': 'preact/compat',
  'react-dom/client$': 'preact/compat/client',
  'react/jsx-runtime$': 'preact/jsx-runtime',
  'react/jsx-dev-runtime$': 'preact/jsx-runtime',
};

export default function bundleSplitPlugin(): Plugin {
  return {
    name: 'bundle-split',
    configureWebpack(config, isServer, {currentBundler}) {
      if (isServer) return {};
      if (config.mode === 'production') {
        // Docusaurus aliases `react` and `react-dom` to the site's copies (directory aliases
        // that would win over ours): drop them for the browser build.
        const alias = (config.resolve?.alias ?? {}) as Record<string, unknown>;
        delete alias.react;
        delete alias['react-dom'];
        Object.assign(alias, PREACT_ALIASES);
        // Rspack's persistent cache does not see alias changes: make this file part of its key.
        const cache = (config.experiments as {cache?: {buildDependencies?: string[]}} | undefined)?.cache;
        if (currentBundler.name === 'rspack' && cache?.buildDependencies) {
          cache.buildDependencies.push(fileURLToPath(import.meta.url));
        }
      }
      return {
        module: {
          rules: [
            {
              test: /[\\/]\.docusaurus[\\/]docusaurus\.config\.mjs$/,
              use: [{loader: fileURLToPath(new URL('./strip-server-config.cjs', import.meta.url))}],
            },
          ],
        },
        optimization: {
          splitChunks: {
            cacheGroups: {
              diagrams: {
                name: 'diagrams',
                test: LAZY_ONLY_MODULES,
                chunks: 'async',
                priority: 45,
                enforce: true,
              },
            },
          },
        },
      };
    },
  };
}
