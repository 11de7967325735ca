/**
 * src/link-on-intent is Docusaurus 3.10.2's Link without its viewport prefetch, and
 * src/head-after-hydration wraps its Head (plugins/framework-modules.ts aliases both in). An
 * upgrade of @docusaurus/core that changes either stock module fails here, so that whoever
 * upgrades re-reads ours against the new one (and still needs it), then records the new hash.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';

const load = createRequire(__filename);

/** The stock modules ours were written against (sha256 of the installed files). */
const WRITTEN_AGAINST = {
  'Link.js': {core: '3.10.2', sha256: 'cd83fc0c2bffaab83186636c309c8086aac4aa53594dc7eeb4b9f9817527d277', ours: 'src/link-on-intent'},
  'Head.js': {core: '3.10.2', sha256: 'cffe1438651ffcd100c4389ef8c04a522ef911827ec4ac4c4a3c231c0cc754af', ours: 'src/head-after-hydration'},
};

for (const [file, expected] of Object.entries(WRITTEN_AGAINST)) {
  test(`@docusaurus/core's ${file} is the one ${expected.ours} was written against`, () => {
    const installed = load.resolve(`@docusaurus/core/lib/client/exports/${file}`);
    const {version} = load('@docusaurus/core/package.json') as {version: string};
    const sha256 = createHash('sha256').update(readFileSync(installed)).digest('hex');
    assert.equal(
      sha256,
      expected.sha256,
      `@docusaurus/core ${version} changed lib/client/exports/${file} (written against ${expected.core}): compare ${expected.ours} with it, then update WRITTEN_AGAINST`,
    );
  });
}
