/**
 * Docusaurus client modules replaced by this site's own (the framework's extension points for
 * modules that are not theme components: webpack aliases and module replacement):
 * - `@docusaurus/Link`: src/link-on-intent, no prefetch of every visible link's route;
 * - `@docusaurus/Head`: src/head-after-hydration, the head left as the server wrote it while the
 *   first page hydrates in time slices;
 * - two internal modules of @docusaurus/theme-common, lib/utils/reactUtils.js and scrollUtils.js:
 *   src/theme-common-overrides re-exports each and replaces one function (no localeCompare, no
 *   scroll read per render, during hydration). Importers inside the package reach them by
 *   relative paths, so they are swapped where they resolve (NormalModuleReplacementPlugin) for
 *   every importer except the overrides themselves, which reach the stock files as
 *   `~stock/theme-common/<name>` (an alias; site/tsconfig.json maps it for types).
 * Docusaurus's own aliases name each `@docusaurus/<module>` apart, so the two aliases replace
 * exactly those two. test/framework-modules.test.ts fails when an upgrade changes a stock module.
 */
import {createRequire} from 'node:module';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

const load = createRequire(import.meta.url);

/** theme-common's lib/utils, found from its entry (its `exports` hide deep paths). */
const THEME_COMMON_UTILS = path.join(path.dirname(load.resolve('@docusaurus/theme-common')), 'utils');
export const THEME_COMMON_OVERRIDES = ['reactUtils', 'scrollUtils'] as const;

export default function frameworkModules(context: LoadContext): Plugin {
  const src = path.join(context.siteDir, 'src');
  const overridesDir = path.join(src, 'theme-common-overrides');
  return {
    name: 'framework-modules',
    configureWebpack(_config, _isServer, {currentBundler}) {
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
        plugins: replacements,
        resolve: {
          alias: {
            '@docusaurus/Link': path.join(src, 'link-on-intent', 'index.tsx'),
            '@docusaurus/Head': path.join(src, 'head-after-hydration', 'index.tsx'),
            ...Object.fromEntries(THEME_COMMON_OVERRIDES.map((name) => [`~stock/theme-common/${name}$`, path.join(THEME_COMMON_UTILS, `${name}.js`)])),
          },
        },
      };
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
