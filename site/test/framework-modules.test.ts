/**
 * src/link-on-intent is Docusaurus 3.10.2's Link without its viewport prefetch,
 * src/head-after-hydration wraps its Head, src/deferred-hydration renders core's internal
 * BrowserContextProvider (lib/client/browserContext.js) for each deferred part, and
 * src/theme-common-overrides replace one function each of two theme-common modules
 * (plugins/framework-modules.ts puts them in place). An upgrade that changes one of the stock
 * modules fails here, so that whoever upgrades re-reads ours against the new one (and checks it
 * is still needed), then records the new hash.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

const load = createRequire(__filename);

/** The stock modules ours were written against (sha256 of the installed files). */
const CORE = path.dirname(load.resolve('@docusaurus/core/package.json'));
// theme-common's `exports` hide its package.json and lib/utils: found from its entry, lib/index.js.
const THEME_COMMON = path.dirname(path.dirname(load.resolve('@docusaurus/theme-common')));
const WRITTEN_AGAINST = [
  {file: path.join(CORE, 'lib/client/exports/Link.js'), version: '3.10.2', sha256: 'cd83fc0c2bffaab83186636c309c8086aac4aa53594dc7eeb4b9f9817527d277', ours: 'src/link-on-intent'},
  {file: path.join(CORE, 'lib/client/exports/Head.js'), version: '3.10.2', sha256: 'cffe1438651ffcd100c4389ef8c04a522ef911827ec4ac4c4a3c231c0cc754af', ours: 'src/head-after-hydration'},
  {file: path.join(CORE, 'lib/client/browserContext.js'), version: '3.10.2', sha256: 'f0765ea0de6c682044acc2d1f6f7d474e9ac389591a8e97f877e437c09225b4c', ours: 'src/deferred-hydration'},
  {file: path.join(THEME_COMMON, 'lib/utils/reactUtils.js'), version: '3.10.2', sha256: 'a683742dac1a155bbd1c355601dedc1eeb7cc5edd7331cab26043c74233dca11', ours: 'src/theme-common-overrides/reactUtils.ts'},
  {file: path.join(THEME_COMMON, 'lib/utils/scrollUtils.js'), version: '3.10.2', sha256: '7ec03a694796359211e07d255a79b946dfe22f85d0ef0019d41fde6d218c9941', ours: 'src/theme-common-overrides/scrollUtils.ts'},
];

for (const expected of WRITTEN_AGAINST) {
  const name = path.relative(path.dirname(path.dirname(CORE)), expected.file);
  test(`${name} is the one ${expected.ours} was written against`, () => {
    const sha256 = createHash('sha256').update(readFileSync(expected.file)).digest('hex');
    assert.equal(
      sha256,
      expected.sha256,
      `${name} changed since ${expected.version}: compare ${expected.ours} with it, then update WRITTEN_AGAINST`,
    );
  });
}
