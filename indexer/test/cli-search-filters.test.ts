/**
 * `docs-indexer search` filters (issue 28): a type filter applies to the record that matched; an
 * explicit language facet replaces the default language; a value the index does not hold is a
 * usage error listing those it does; the default language is the site's default locale.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {SearchRecord} from 'docs-search/record';
import {writeLocalIndex} from '../src/publish/local/publish.ts';
import {defaultLanguage} from '../src/cli/commands/search.ts';
import {SITE_RECORDS} from 'docs-search/testing';
import {runCli} from './helpers.ts';

let dir = '';
let index = '';

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cli-search-filters-'));
  index = path.join(dir, 'local-index.json');
  await writeLocalIndex(SITE_RECORDS, index);
});

after(() => rm(dir, {recursive: true, force: true}));

const hitsOf = async (file: string, query: string, ...args: string[]): Promise<{url: string; type: string}[]> => {
  const run = await runCli(['search', query, '--index-file', file, '--json', ...args]);
  assert.equal(run.code, 0, run.stderr);
  return (JSON.parse(run.stdout) as {hits: {url: string; type: string}[]}).hits;
};

test('--facet type:content answers with the paragraphs that matched, not nothing; type:lvl2 with headings', async () => {
  const content = await hitsOf(index, 'token', '--facet', 'type:content');
  assert.ok(content.length >= 2, 'the paragraphs that say token');
  assert.ok(content.every((h) => h.type === 'content'));
  assert.ok(content.some((h) => h.url.endsWith('/docs/v2/authorization')));
  const headings = await hitsOf(index, 'user', '--facet', 'type:lvl2');
  assert.ok(headings.length > 0);
  assert.ok(headings.every((h) => h.type === 'lvl2'));
  const notContent = await hitsOf(index, 'token', '--facet', '-type:content');
  assert.ok(notContent.every((h) => h.type !== 'content'));
});

/** Pages of a two-language site: French is the default locale (served at the root), English has more records. */
function bilingual(): SearchRecord[] {
  const base = SITE_RECORDS.find((r) => r.type === 'lvl1')!;
  const page = (id: string, url: string, title: string, language: string): SearchRecord => ({
    ...base,
    objectID: id,
    url,
    url_without_anchor: url,
    anchor: null,
    language,
    hierarchy: {...base.hierarchy, lvl0: 'Docs', lvl1: title},
  });
  return [
    page('fr-home', 'https://b.example/', 'Accueil meter', 'fr'),
    page('fr-meter', 'https://b.example/docs/meter', 'Compteur meter', 'fr'),
    page('en-home', 'https://b.example/en/', 'Home meter', 'en'),
    page('en-meter', 'https://b.example/en/docs/meter', 'Meter readings', 'en'),
    page('en-more', 'https://b.example/en/docs/more', 'More meter', 'en'),
  ];
}

test('the default language is the site root\'s (its default locale), even where another language has more records', async () => {
  const records = bilingual();
  assert.equal(defaultLanguage(records), 'fr');
  // no root page in one language: the most common
  assert.equal(defaultLanguage(records.filter((r) => !r.objectID.endsWith('home'))), 'fr', 'French /docs/meter is shallower');
  assert.equal(defaultLanguage(records.filter((r) => r.objectID !== 'fr-home').map((r) => ({...r, url_without_anchor: r.url_without_anchor.replace('/en/', '/')}))), 'en');
  const file = path.join(dir, 'bilingual.json');
  await writeLocalIndex(records, file);
  assert.deepEqual((await hitsOf(file, 'meter')).map((h) => h.url).sort(), ['https://b.example/', 'https://b.example/docs/meter']);
});

test('--facet language:en without --language replaces the default language instead of narrowing it to nothing', async () => {
  const file = path.join(dir, 'bilingual2.json');
  await writeLocalIndex(bilingual(), file);
  const english = (await hitsOf(file, 'meter', '--facet', 'language:en')).map((h) => h.url).sort();
  assert.deepEqual(english, ['https://b.example/en/', 'https://b.example/en/docs/meter', 'https://b.example/en/docs/more']);
  assert.deepEqual((await hitsOf(file, 'meter', '--language', 'en')).map((h) => h.url).sort(), english);
});

test('a facet value the index does not hold is a usage error (exit 2) that lists the values it holds', async () => {
  const file = path.join(dir, 'bilingual3.json');
  await writeLocalIndex(bilingual(), file);
  const cases: [string, RegExp][] = [
    ['language:de', /^docs-indexer: --facet language:de: the index holds no language "de" \(it has: en, fr\)\n$/],
    ['type:lvl9', /^docs-indexer: --facet type:lvl9: the index holds no type "lvl9" \(it has: lvl1\)\n$/],
    ['-docusaurus_tag:nope', /^docs-indexer: --facet -docusaurus_tag:nope: the index holds no docusaurus_tag "nope" \(it has: docs-default-current\)\n$/],
    ['version:2.0', /^docs-indexer: --facet version:2\.0: the index holds no version "2\.0" \(it has: current\)\n$/],
  ];
  for (const [facet, message] of cases) {
    const run = await runCli(['search', 'meter', '--index-file', file, '--facet', facet]);
    assert.equal(run.code, 2, facet);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, message);
  }
});
