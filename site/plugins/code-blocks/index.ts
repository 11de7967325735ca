/**
 * Code blocks that cost a phone little: colours as CSS for both modes (theme-css.ts), and Prism
 * kept out of the browser's first load (src/code-highlighter, src/theme/CodeBlock).
 *
 * - Every page's head gets the stylesheet of the light and dark code themes.
 * - The server build resolves src/code-highlighter/client.ts to server.ts, which highlights
 *   synchronously; the browser build loads Prism on demand.
 * - theme-classic's prism-include-languages client module, which would put Prism and its
 *   languages into main.js, is left out of the browser build; src/code-highlighter/prism.ts runs
 *   it on the Prism it loads.
 */
import {createRequire} from 'node:module';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {PrismTheme} from 'prism-react-renderer';
import {codeThemeCss} from './theme-css';
import {keeps} from '../overrides';

export {cssVariablePrismTheme} from './theme-css';

export interface CodeBlocksOptions {
  light: PrismTheme;
  dark: PrismTheme;
  /** Overrides this build leaves out. */
  without?: readonly string[];
}

export default function codeBlocksPlugin(context: LoadContext, options: CodeBlocksOptions): Plugin {
  const require = createRequire(path.join(context.siteDir, 'package.json'));
  const highlighterDir = path.join(context.siteDir, 'src/code-highlighter');
  // The package's "exports" hide lib/: resolve its main entry (lib/index.js) and go from there.
  const prismClientModule = path.join(path.dirname(require.resolve('@docusaurus/theme-classic')), 'prism-include-languages');
  const css = codeThemeCss(options.light, options.dark);
  return {
    name: 'code-blocks',
    injectHtmlTags() {
      return {headTags: [{tagName: 'style', innerHTML: css}]};
    },
    configureWebpack(_config, isServer) {
      // Without prism-on-demand: theme-classic's CodeBlock/Content and Prism in main.js, as stock.
      if (!keeps(options.without, 'prism-on-demand')) return {};
      return {
        resolve: {
          alias: isServer
            ? {[path.join(highlighterDir, 'client.ts')]: path.join(highlighterDir, 'server.ts')}
            : {[prismClientModule]: false},
        },
      };
    },
  };
}
