import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import path from 'node:path';
import {crawl} from '../src/crawl/crawl.ts';
import {extractPageDetailed} from '../src/extract/extract.ts';
import {MAX_RECORD_BYTES, searchRecordSchema} from 'docs-search/record';
import {exists, siteBuild} from './helpers.ts';

const built = await exists(path.join(siteBuild, 'index.html'));
const skip = built ? false : 'site/build is absent: run `cd site && npx docusaurus build` to test extraction on the real site';

test('the real site build: every page indexed at its canonical URL with valid records', {skip}, async () => {
  const result = await crawl(siteBuild);
  assert.ok(result.pages >= 20, `only ${result.pages} pages`);
  const pages = new Set(result.records.map((r) => r.url_without_anchor));
  for (const url of pages) {
    const rel = new URL(url).pathname.slice(1) || 'index';
    const file = path.join(siteBuild, rel.endsWith('/') ? `${rel}index.html` : `${rel}.html`);
    const page = extractPageDetailed(await readFile(file, 'utf8'), {url});
    assert.equal(page.canonical, url, 'record URL = the page canonical URL (served path, no .html)');
  }
  assert.ok(![...pages].some((u) => u.endsWith('/404') || u.endsWith('/search') || u.endsWith('.html')));
  const ids = new Set<string>();
  for (const r of result.records) {
    assert.equal(searchRecordSchema.safeParse(r).success, true);
    assert.ok(Buffer.byteLength(JSON.stringify(r)) <= MAX_RECORD_BYTES);
    assert.ok(!ids.has(r.objectID), `duplicate objectID ${r.objectID}`);
    ids.add(r.objectID);
    assert.ok(r.language && r.docusaurus_tag, 'contextual search facets present');
  }
  const lvl0 = (suffix: string) => result.records.find((r) => r.url_without_anchor.endsWith(suffix))?.hierarchy.lvl0;
  assert.equal(lvl0('/docs/v1/measurement'), 'API v1');
  assert.equal(lvl0('/docs/v2/batteries'), 'API v2');
  assert.equal(lvl0('/docs/introduction'), 'Documentation');
  assert.equal(result.records.find((r) => r.url_without_anchor.endsWith('/docs/v2/batteries'))?.version, 'current');
  const text = JSON.stringify(result.records);
  for (const noise of ['Edit this page', 'Direct link to', 'Skip to main content', 'Independent documentation of the HomeWizard']) {
    assert.ok(!text.includes(noise), `records contain "${noise}"`);
  }
});

test('the real site build: rebuilding gives the same objectIDs', {skip}, async () => {
  const a = await crawl(siteBuild, {concurrency: 3});
  const b = await crawl(siteBuild, {concurrency: 12});
  assert.deepEqual(a.records.map((r) => r.objectID), b.records.map((r) => r.objectID));
});
