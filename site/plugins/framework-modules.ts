/**
 * Two of Docusaurus's client modules replaced by this site's own, through webpack aliases (the
 * framework's extension point for modules that are not theme components):
 * - `@docusaurus/Link`: src/link-on-intent, no prefetch of every visible link's route;
 * - `@docusaurus/Head`: src/head-after-hydration, the head left as the server wrote it while the
 *   first page hydrates in time slices.
 * Docusaurus's own aliases name each `@docusaurus/<module>` apart, so these replace exactly the
 * two (the stock modules stay reachable by their file in @docusaurus/core).
 */
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

export default function frameworkModules(context: LoadContext): Plugin {
  const src = path.join(context.siteDir, 'src');
  return {
    name: 'framework-modules',
    configureWebpack() {
      return {
        resolve: {
          alias: {
            '@docusaurus/Link': path.join(src, 'link-on-intent', 'index.tsx'),
            '@docusaurus/Head': path.join(src, 'head-after-hydration', 'index.tsx'),
          },
        },
      };
    },
  };
}
