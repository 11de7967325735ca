/**
 * Docusaurus client modules replaced by this site's own (the framework's extension points for
 * modules that are not theme components: webpack aliases and module replacement):
 * - the renderer: in the browser, `react` and `react-dom` resolve to preact/compat (Preact 10),
 *   which hydrates the server's React markup. react-dom 18 alone was 41 of main.js's 89 KB gzip;
 *   the first visit's JavaScript on /docs/introduction went from 121 to 86 KB gzip. The server
 *   still renders with React (Docusaurus's SSR), so the markup is React's. Preact hydrates in one
 *   task where React sliced it: src/deferred-hydration (a client module) leaves the navbar, the
 *   docs column, the footer and the home page's body for tasks of their own. preact/devtools is
 *   a client module too: Preact DevTools attach to the production site, and the browser tests
 *   trace what the renderer walks through the same protocol (e2e/shell-routes.ts).
 *   `renderer: 'react'` (SITE_RENDERER=react) builds with React 18 instead, for the bench's
 *   baseline and as a way back: then src/hydration-pace, which only React's scheduler needs, is
 *   the client module;
 * - `@docusaurus/Head`: src/head-after-hydration, the head left as the server wrote it while the
 *   first page hydrates;
 * - `@docusaurus/Link`: src/link-on-intent, no prefetch of every visible link's route;
 * - two internal modules of @docusaurus/theme-common, lib/utils/reactUtils.js and scrollUtils.js:
 *   src/theme-common-overrides re-exports each and replaces one function (no localeCompare, no
 *   scroll read per render, during hydration). Importers inside the package reach them by
 *   relative paths, so they are swapped where they resolve (NormalModuleReplacementPlugin) for
 *   every importer except the overrides themselves, which reach the stock files as
 *   `~stock/theme-common/<name>` (an alias; site/tsconfig.json maps it for types).
 * Docusaurus's own aliases name each `@docusaurus/<module>` apart, so the aliases replace exactly
 * those. Its `react` and `react-dom` aliases name the packages' folders (a prefix match), so ours
 * replace those entries with preact/compat's folder, where `react/jsx-runtime`,
 * `react-dom/client` and the rest resolve too. test/framework-modules.test.ts fails when an
 * upgrade changes a stock module.
 */
import {createRequire} from 'node:module';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

const load = createRequire(import.meta.url);

/** theme-common's lib/utils, found from its entry (its `exports` hide deep paths). */
const THEME_COMMON_UTILS = path.join(path.dirname(load.resolve('@docusaurus/theme-common')), 'utils');
export const THEME_COMMON_OVERRIDES = ['reactUtils', 'scrollUtils'] as const;

/** preact/compat's folder: react, react/jsx-runtime, react-dom and react-dom/client all resolve inside it. */
const PREACT_COMPAT = path.join(path.dirname(load.resolve('preact/package.json')), 'compat');

export type Renderer = 'preact' | 'react';
export interface FrameworkModulesOptions {
  /** What renders in the browser; the server renders with React either way. */
  renderer: Renderer;
}

export default function frameworkModules(context: LoadContext, {renderer}: FrameworkModulesOptions): Plugin {
  const src = path.join(context.siteDir, 'src');
  const overridesDir = path.join(src, 'theme-common-overrides');
  const preact = renderer === 'preact';
  return {
    name: 'framework-modules',
    getClientModules() {
      return preact
        ? [load.resolve('preact/devtools'), path.join(src, 'deferred-hydration', 'index.tsx')]
        : [path.join(src, 'hydration-pace', 'index.ts')];
    },
    configureWebpack(config, isServer, {currentBundler}) {
      keyCacheByRenderer(config, renderer);
      const replacements = THEME_COMMON_OVERRIDES.map((name) => {
        const stock = path.join(THEME_COMMON_UTILS, `${name}.js`);
        const ours = path.join(overridesDir, `${name}.ts`);
        return new currentBundler.instance.NormalModuleReplacementPlugin(
          new RegExp(`${escapeRegExp(stock)}$`),
          (data: {contextInfo: {issuer: string}; createData?: {resource?: string; request?: string; userRequest?: string}}) => {
            const created = data.createData;
            if (created?.resource !== stock || data.contextInfo.issuer.startsWith(overridesDir)) return;
            // The module's identity is its request (loaders + file): all three name ours.
            created.resource = ours;
            created.request = created.request?.replace(stock, ours);
            created.userRequest = created.userRequest?.replace(stock, ours);
          },
        );
      });
      return {
        // src/deferred-hydration defers parts of the first hydration for Preact only.
        plugins: [...replacements, new currentBundler.instance.DefinePlugin({__SITE_RENDERER__: JSON.stringify(renderer)})],
        resolve: {
          alias: {
            ...(preact && !isServer ? {react: PREACT_COMPAT, 'react-dom': PREACT_COMPAT} : {}),
            '@docusaurus/Head': path.join(src, 'head-after-hydration', 'index.tsx'),
            '@docusaurus/Link': path.join(src, 'link-on-intent', 'index.tsx'),
            ...Object.fromEntries(THEME_COMMON_OVERRIDES.map((name) => [`~stock/theme-common/${name}$`, path.join(THEME_COMMON_UTILS, `${name}.js`)])),
          },
        },
      };
    },
  };
}

/**
 * The renderer changes what `react` resolves to, which the bundler's persistent cache does not
 * see (its version covers theme aliases only): a React build after a Preact one reused Preact's
 * modules and never hydrated. One cache per renderer: the renderer joins the cache's version.
 */
function keyCacheByRenderer(config: object, renderer: Renderer): void {
  const {cache: webpackCache, experiments} = config as {cache?: unknown; experiments?: {cache?: unknown}};
  for (const cache of [webpackCache, experiments?.cache]) {
    if (cache && typeof cache === 'object' && 'version' in cache) cache.version = `${String(cache.version)}-${renderer}`;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
