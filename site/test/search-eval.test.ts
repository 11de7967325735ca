/**
 * search:eval's sets: the real set's seeded split, the halves reported apart, and the
 * known items generated from the API descriptions and a build.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {apiIdentifiers, knownItems} from '../scripts/known-items';
import {answerer, bootstrapInterval, loadQueries, loadSet, mulberry32, querySets, rankOf, report, SHARED_QUERIES, syntheticPages, type EvalQuery} from '../scripts/search-eval';

test('the real set is split as its seed says: a Fisher-Yates shuffle (mulberry32, 37), the first half tuning; later questions are test only', () => {
  const real = loadQueries().filter((q) => q.set === 'real');
  const original = real.filter((q) => q.issue === undefined);
  const rand = mulberry32(37);
  const idx = original.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  const tuning = new Set(idx.slice(0, Math.floor(original.length / 2)));
  original.forEach((q, i) => assert.equal(q.split, tuning.has(i) ? 'tuning' : 'test', q.q));
  const added = real.filter((q) => q.issue === 37);
  assert.ok(added.length >= 60, `${added.length} new questions`);
  for (const q of added) {
    assert.equal(q.split, 'test', q.q);
    assert.match(q.source ?? '', /^https:\/\//, `${q.q} has its source`);
  }
  assert.equal(new Set(real.map((q) => q.q.toLowerCase())).size, real.length, 'no question twice');
});

test('the tuning half grows only with questions from threads the test half does not cite', () => {
  const real = loadQueries().filter((q) => q.set === 'real');
  const grown = real.filter((q) => q.issue === '37b' || q.issue === '37c' || q.issue === '37d');
  assert.ok(grown.length > 0);
  const testSources = new Set(real.filter((q) => q.split === 'test').map((q) => q.source));
  for (const q of grown) {
    assert.equal(q.split, 'tuning', q.q);
    assert.match(q.source ?? '', /^https:\/\//, `${q.q} has its source`);
    assert.ok(!testSources.has(q.source), `${q.q}: its thread is not the source of a test question`);
  }
  assert.equal(new Set(grown.map((q) => q.source)).size, grown.length, 'one question per thread');
});

test('the halves are reported apart, and the questions of each issue as before', () => {
  const q = (text: string, extra: Partial<EvalQuery>): EvalQuery => ({q: text, pages: ['/docs/a'], ...extra});
  const sets = querySets([q('a', {}), q('b', {set: 'real', split: 'tuning'}), q('c', {set: 'real', split: 'test'}), q('d', {set: 'real', split: 'test', issue: 37})]);
  assert.deepEqual(
    [...sets].map(([name, list]) => [name, list.map((x) => x.q).join('')]),
    [
      ['base', 'a'],
      ['real:tuning', 'b'],
      ['real:test', 'cd'],
      ['real:issue-28', 'bc'],
      ['real:issue-37', 'd'],
    ],
  );
});

test('a set holding test-half questions is printed as figures only, never a line per question', () => {
  const results = [
    {q: 'first question', rank: 2, shown: ['/docs/b', '/docs/a']},
    {q: 'second question', rank: null, shown: ['/docs/b']},
  ];
  const summary = {results, mrr10: 0.25, at1: 0, at5: 1, total: 2};
  assert.match(report('set', summary, true), /first question/);
  const figures = report('set', summary, true, 0.95, true);
  assert.doesNotMatch(figures, /question/);
  assert.match(figures, /MRR@10 0\.250/);
});

test('a known item is answered only on its section; a question on any section of its pages', () => {
  const shown = ['/docs/a#example', '/docs/a#fields'];
  assert.equal(rankOf(shown, ['/docs/a']), 1);
  assert.equal(rankOf(shown, ['/docs/a'], ['/docs/a#fields']), 2);
});

test('known items: identifiers of the descriptions -> the sections whose heading or table row names them; headings -> their sections', (t) => {
  const ids = apiIdentifiers(join(import.meta.dirname, '../api'));
  for (const id of ['power_w', '/api/measurement', '/api/v1/data', 'user:unauthorized', 'X-Api-Version', 'authorization_requested', 'cloud_enabled']) {
    assert.ok(ids.includes(id), id);
  }
  const api = mkdtempSync(join(tmpdir(), 'known-api-'));
  t.after(() => rmSync(api, {recursive: true, force: true}));
  writeFileSync(join(api, 'v1.openapi.yaml'), 'paths:\n  /api/x:\n    get: {}\ncomponents:\n  schemas:\n    X:\n      properties:\n        power_w: {type: number}\n        mode: {type: string}\n');
  writeFileSync(join(api, 'v2.openapi.yaml'), 'x-error-codes:\n  - code: user:unauthorized\n');
  writeFileSync(join(api, 'websocket.asyncapi.yaml'), 'channels: {}\n');
  const build = mkdtempSync(join(tmpdir(), 'known-build-'));
  t.after(() => rmSync(build, {recursive: true, force: true}));
  mkdirSync(join(build, 'docs'));
  writeFileSync(
    join(build, 'docs/page.html'),
    '<html><body><article><header><h1>Page</h1></header><table><tr><th>Item<th>Value<tbody><tr><td>Method and path<td><code>GET /api/x</code></table>' +
      '<h2 class=anchor id=example>Example<a href=#example class=hash-link>\u200b</a></h2><p><code>power_w</code> and <code>user:unauthorized</code></p>' +
      '<h2 class=anchor id=fields>Fields<a href=#fields class=hash-link>\u200b</a></h2><table><thead><tr><th>Field<th>Type<tbody><tr><td><code>power_w</code><td>number<tr><td><code>mode</code><td>string</table>' +
      '<h3 class=anchor id=userunauthorized><code>user:unauthorized</code><a href=#userunauthorized class=hash-link>\u200b</a></h3><p>Bad token.</p></article></body></html>',
  );
  const {queries} = knownItems(api, build);
  const of = (q: string) => queries.find((x) => x.q === q && x.set !== 'headings');
  assert.deepEqual(of('power_w'), {q: 'power_w', pages: ['/docs/page'], anchors: ['/docs/page#fields'], set: 'identifiers'});
  assert.deepEqual(of('/api/x')?.anchors, ['/docs/page'], 'the method-and-path cell, before any h2: the page itself');
  assert.deepEqual(of('user:unauthorized')?.anchors, ['/docs/page#userunauthorized']);
  assert.equal(of('mode')?.set, 'plain-names');
  assert.deepEqual(
    queries.filter((x) => x.set === 'headings').map((x) => [x.q, x.anchors]),
    [
      ['Page', ['/docs/page']],
      ['Example', ['/docs/page#example']],
      ['Fields', ['/docs/page#fields']],
      ['user:unauthorized', ['/docs/page#userunauthorized']],
    ],
  );
});

test("the readers' vocabulary: each vocab-* synonym is a kept entry with its source, and `tariff 2` finds a `_t2_` field's row", async () => {
  const {readFileSync} = await import('node:fs');
  const {LocalSearchEngine, checkSynonyms} = await import('docs-search');
  const site = join(import.meta.dirname, '..');
  const synonyms = checkSynonyms((JSON.parse(readFileSync(join(site, 'search-synonyms.json'), 'utf8')) as {synonyms: unknown}).synonyms);
  const vocabulary = JSON.parse(readFileSync(join(site, 'search-vocabulary.json'), 'utf8')) as {
    entries: {id: string; names: string[]; finds: string[]; source: string; kept: boolean}[];
  };
  const used = synonyms.filter((s) => s.objectID.startsWith('vocab-'));
  assert.ok(used.length > 0);
  for (const s of used) {
    const entry = vocabulary.entries.find((e) => `vocab-${e.id}` === s.objectID);
    assert.ok(entry?.kept, `${s.objectID}: a kept entry of search-vocabulary.json`);
    assert.deepEqual([s.type, s.input, s.synonyms], ['oneWaySynonym', entry.names[0], entry.finds], s.objectID);
    assert.match(entry.source, /^https:\/\/|\.py|README/, `${s.objectID}: its source`);
  }
  assert.deepEqual(
    vocabulary.entries.filter((e) => e.kept).map((e) => `vocab-${e.id}`),
    used.map((s) => s.objectID),
    'every kept entry is in the synonyms',
  );
  // two sections: the totals' rows name `energy_import_t2_kwh`; prose about tariffs says "tariff", "import" and a 2
  const origin = 'https://docs.example.org';
  let position = 0;
  const rec = (anchor: string, lvl1: string, content: string) => ({
    objectID: `${anchor}:${position}`,
    url: `${origin}/docs/m#${anchor}`,
    url_without_anchor: `${origin}/docs/m`,
    anchor,
    type: 'content' as const,
    hierarchy: {lvl0: 'Docs', lvl1, lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null},
    content,
    weight: {pageRank: 0, level: 0, position: position++},
    language: 'en',
    docusaurus_tag: 'docs-default-current',
    version: 'current',
  });
  const records = [
    rec('active-tariff', 'Active tariff', 'The energy meter counts import in tariff 1 or 2, one at a time.'),
    rec('totals', 'Energy totals', 'energy_import_t1_kwh: energy imported in the first register (kWh).'),
    rec('totals', 'Energy totals', 'energy_import_t2_kwh: energy imported in the second register (kWh).'),
  ];
  const first = (list: typeof synonyms) => new LocalSearchEngine(records).useSynonyms(list).rank('energy import tariff 2')[0]?.record.url;
  assert.equal(first(synonyms.filter((s) => !s.objectID.startsWith('vocab-'))), `${origin}/docs/m#active-tariff`, 'without the vocabulary: the prose');
  assert.equal(first(synonyms), `${origin}/docs/m#totals`, "with it: the row of the tariff's field");
});

test("each set's figure comes with the interval it would move in over other questions of its kind", () => {
  const half = Array.from({length: 80}, (_, i) => (i % 4 === 0 ? 0.5 : 1));
  const [low, high] = bootstrapInterval(half);
  const mean = half.reduce((a, b) => a + b, 0) / half.length;
  assert.ok(low < mean && mean < high, `${low} < ${mean} < ${high}`);
  assert.deepEqual(bootstrapInterval(half), [low, high], 'seeded: the same figures every run');
  // four times the questions, about half the width
  const [low4, high4] = bootstrapInterval([...half, ...half, ...half, ...half]);
  assert.ok(high4 - low4 < 0.7 * (high - low), `${high4 - low4} against ${high - low}`);
  assert.deepEqual(bootstrapInterval(Array(30).fill(1)), [1, 1], 'every question first: no room to move');
  assert.match(report('t', {results: half.map((rr, i) => ({q: String(i), rank: 1 / rr, shown: []})), mrr10: mean, at1: 60, at5: 80, total: 80}, false), /MRR@10 0\.875 \(95 % interval 0\.\d\d-0\.\d\d\)/);
});

test('the typos set: 8 of each kind, each query one typo away from a word of 5+ letters the site uses', () => {
  const typos = loadQueries().filter((q) => q.set === 'typos');
  assert.equal(typos.length, 32);
  for (const kind of ['missing', 'extra', 'swapped', 'wrong'] as const) assert.equal(typos.filter((q) => q.typo === kind).length, 8, kind);
  const kindOf = (typed: string, word: string): string | null => {
    if (typed.length === word.length - 1) return [...word].some((_, i) => word.slice(0, i) + word.slice(i + 1) === typed) ? 'missing' : null;
    if (typed.length === word.length + 1) return [...typed].some((_, i) => typed.slice(0, i) + typed.slice(i + 1) === word) ? 'extra' : null;
    const diff = [...word].map((c, i) => (c === typed[i] ? -1 : i)).filter((i) => i >= 0);
    if (diff.length === 1) return 'wrong';
    return diff.length === 2 && diff[1] === diff[0]! + 1 && word[diff[0]!] === typed[diff[1]!] && word[diff[1]!] === typed[diff[0]!] ? 'swapped' : null;
  };
  for (const q of typos) {
    assert.ok(q.word && q.word.length >= 5, `${q.q}: a word of 5 letters or more`);
    const typed = q.q.split(' ').find((w) => kindOf(w, q.word!) !== null);
    assert.ok(typed, `${q.q}: one typo away from ${q.word}`);
    assert.equal(kindOf(typed, q.word!), q.typo, `${q.q}: a ${q.typo} letter`);
  }
});

test('synthetic pages: documentation pages of words the site does not use, the same every run', () => {
  const template = {
    objectID: 'x', url: 'https://example.org/docs/a', url_without_anchor: 'https://example.org/docs/a', anchor: null, type: 'lvl1' as const,
    hierarchy: {lvl0: 'Docs', lvl1: 'A', lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null}, content: null,
    weight: {pageRank: 0, level: 100, position: 0}, language: 'en', docusaurus_tag: 'docs-default-current',
  };
  const pages = syntheticPages([template], 3);
  assert.deepEqual(pages, syntheticPages([template], 3));
  assert.equal(new Set(pages.map((r) => r.url_without_anchor)).size, 3);
  assert.equal(pages.length, 3 * (1 + 3 * 3));
  const words = pages.flatMap((r) => `${r.hierarchy.lvl1} ${r.hierarchy.lvl2 ?? ''} ${r.content ?? ''}`.match(/[a-z]+/g) ?? []);
  assert.ok(words.length > 100 && words.every((w) => w.startsWith('zq')), 'every word made up (zq…)');
});


const BUILD = join(import.meta.dirname, '../build');
const builtIndex = existsSync(join(BUILD, 'search/local-index.json'));

test(
  'every query of every set gets the same top 10 from one file and from shards read as the browser reads them, typos included',
  {skip: !builtIndex && 'no site build (npm run build first)'},
  async () => {
    const queries = [...loadQueries(), ...loadSet(SHARED_QUERIES, 'shared'), ...knownItems(join(import.meta.dirname, '../api'), BUILD).queries];
    assert.ok(['typos', 'forms', 'real', 'identifiers', 'plain-names', 'headings'].every((set) => queries.some((q) => q.set === set)));
    // the build's records in each format, forced; sharded: a new client per query, fetching only the files it reads
    const oneFile = await answerer(BUILD, 'one-file');
    const sharded = await answerer(BUILD, 'sharded');
    const differ: string[] = [];
    for (const q of queries) {
      const [a, b] = [(await oneFile(q.q)).slice(0, 10), (await sharded(q.q)).slice(0, 10)];
      const name = q.split === 'test' ? `test-half ${createHash('sha256').update(q.q).digest('hex').slice(0, 8)}` : `${q.set ?? 'base'}: ${q.q}`;
      if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(name);
    }
    assert.deepEqual(differ, [], `${differ.length} of ${queries.length} queries differ`);
  },
);
