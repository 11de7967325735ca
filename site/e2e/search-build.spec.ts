/**
 * What the builds contain. `npm test` builds site/build (local mode) and site/build-algolia
 * (Algolia mode), both with ALGOLIA_ADMIN_API_KEY=write-secret-123 in the environment: the
 * write key must appear in no file of either, while the public search key is in the Algolia
 * build (so the scan does look at the right files).
 */
import {test, expect} from '@playwright/test';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

const FAKE_WRITE_KEY = 'write-secret-123';
const SITE = path.resolve(__dirname, '..');

function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const entry of readdirSync(dir, {withFileTypes: true, recursive: true})) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (readFileSync(file).includes(needle)) hits.push(path.relative(SITE, file));
  }
  return hits;
}

test('the write key appears in no file of either build', () => {
  for (const build of ['build', 'build-algolia']) {
    expect(filesContaining(path.join(SITE, build), FAKE_WRITE_KEY), build).toEqual([]);
  }
  expect(filesContaining(path.join(SITE, 'build-algolia'), 'search-key').length).toBeGreaterThan(0);
});

test('local-mode pages carry no preconnect to Algolia; Algolia-mode pages do', () => {
  expect(filesContaining(path.join(SITE, 'build'), 'algolia.net').filter((f) => f.endsWith('.html'))).toEqual([]);
  expect(readFileSync(path.join(SITE, 'build-algolia/docs/introduction.html'), 'utf8')).toMatch(
    /<link[^>]*rel="?preconnect"?[^>]*href="?https:\/\/TESTAPP-dsn\.algolia\.net/,
  );
});

