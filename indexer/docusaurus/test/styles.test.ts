/**
 * The theme's stylesheets as a site's build processes them: Docusaurus's style loader runs
 * postcss-preset-env (with no options) over every CSS file in builds without `future.faster`,
 * and the site's build prints each warning it gives. The site decides the browsers
 * (browserslist); a site with none gets browserslist's `defaults`.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// postcss-preset-env and postcss as Docusaurus's bundler loads them (its dependencies, not ours).
const bundler = createRequire(import.meta.resolve('@docusaurus/bundler'));
const postcss = bundler('postcss') as typeof import('postcss').default;
const presetEnv = bundler('postcss-preset-env') as (options: {browsers?: string | string[]}) => import('postcss').AcceptedPlugin;

const STYLESHEETS = ['src/client/styles.css', 'src/theme/SearchPage/styles.module.css'];
/** No browserslist (browserslist's defaults), the classic template's production list, and the widest a site might ask for. */
const BROWSERS = ['defaults', ['>0.5%', 'not dead', 'not op_mini all'], ['> 0.1%', 'ie 11', 'safari 9']];

for (const file of STYLESHEETS) {
  test(`postcss-preset-env gives no warning on ${file}, whatever the site's browsers`, async () => {
    const css = readFileSync(path.join(here, '..', file), 'utf8');
    for (const browsers of BROWSERS) {
      const result = await postcss([presetEnv({browsers})]).process(css, {from: file});
      assert.deepEqual(
        result.warnings().map((warning) => `${warning.plugin}: ${warning.text}`),
        [],
        `browsers ${JSON.stringify(browsers)}`,
      );
    }
  });
}
