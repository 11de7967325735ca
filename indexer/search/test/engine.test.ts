/**
 * The local search engine: tokenizer, ranking, highlight and snippets, and the packed index
 * format (what the browser client and `docs-indexer search` read).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {answerQuery, MODAL_MAX_QUERY, modalOrder, modalParams} from '../src/engine/answer.ts';
import {highlight, snippet} from '../src/engine/highlight.ts';
import {packRecords, unpackRecords} from '../src/engine/index-file.ts';
import {LocalSearchEngine} from '../src/engine/search.ts';
import {tokenizeForIndex, tokenizeQuery} from '../src/engine/text.ts';
import {recordListSchema} from '../src/record/schema.ts';
import {ORIGIN, recordsWithLongParagraph, SITE_RECORDS} from '../src/testing/search-records.ts';

const hl = {terms: ['power'], prefixLast: true, preTag: '<mark>', postTag: '</mark>'};

/** A paragraph shaped like the site's own, alone in section `anchor` of page `path` titled `lvl1`. */
function paragraphRecord(path: string, lvl1: string, anchor: string, content: string) {
  const base = SITE_RECORDS.find((r) => r.type === 'content' && r.hierarchy.lvl2 !== null)!;
  return {
    ...base,
    url: `${ORIGIN}/${path}#${anchor}`,
    url_without_anchor: `${ORIGIN}/${path}`,
    anchor,
    hierarchy: {...base.hierarchy, lvl1, lvl2: anchor},
    content,
  };
}

test('the modal asks at most its input\'s 64 characters: a longer question is asked as its start', () => {
  const question = 'integration not updating values, the P1 meter api updates every 5 seconds';
  assert.equal(question.length > MODAL_MAX_QUERY, true);
  assert.equal(modalParams(question).query, question.slice(0, 64));
  assert.equal(modalParams('token').query, 'token');
});

test('the fixture records satisfy the one record schema', () => {
  assert.equal(recordListSchema.parse(SITE_RECORDS).length, SITE_RECORDS.length);
});

test('identifiers are indexed whole, by their tails and by their parts; queries keep them whole', () => {
  for (const [text, pieces] of [
    ['active_power_w', ['active_power_w', 'power_w', 'w', 'active', 'power']],
    ['user:unauthorized', ['user:unauthorized', 'unauthorized', 'user']],
    ['X-Api-Version', ['x-api-version', 'api-version', 'version', 'x', 'api']],
    ['_hwenergy._tcp.local', ['_hwenergy._tcp.local', 'hwenergy._tcp.local', 'tcp.local', 'hwenergy', 'tcp', 'local']],
    ['activePowerW', ['activepowerw', 'active', 'power', 'w']],
    ['&lt;img src=x&gt;', ['img', 'src', 'x']],
  ] as const) {
    const tokens = tokenizeForIndex(text);
    for (const p of pieces) assert.ok(tokens.includes(p), `${text} → ${p} (got ${tokens.join(' ')})`);
  }
  assert.deepEqual(tokenizeQuery('Active_Power_W  X-Api-Version'), ['active_power_w', 'x-api-version']);
});

test('highlight marks whole words, parts of identifiers and typed prefixes, never inside an entity', () => {
  assert.equal(highlight('the power and active_power_w', hl).value, 'the <mark>power</mark> and active_<mark>power</mark>_w');
  assert.equal(highlight('powerful', hl).value, '<mark>power</mark>ful');
  assert.equal(highlight('powerful', {...hl, prefixLast: false}).value, 'powerful');
  const amp = highlight('a &amp; b', {...hl, terms: ['amp']});
  assert.equal(amp.value, 'a &amp; b');
  assert.equal(amp.matchLevel, 'none');
  const two = highlight('power meter', {...hl, terms: ['power', 'socket']});
  assert.equal(two.matchLevel, 'partial');
  assert.deepEqual(two.matchedWords, ['power']);
});

test('a snippet keeps N words around the first match with an ellipsis where text was cut', () => {
  const text = 'a b c d e f g h i j k power l m n o p q r s t';
  const s = snippet(text, 5, {...hl, ellipsis: '…'});
  assert.equal(s.value, '…k <mark>power</mark> l m n …');
  assert.equal(snippet('no match here at all', 2, {...hl, ellipsis: '…'}).value, 'no match …');
  assert.equal(snippet('short power', 10, {...hl, ellipsis: '…'}).value, 'short <mark>power</mark>');
});

test('ranking: headings before the paragraphs under them, one hit per URL, contextual filters', () => {
  const engine = new LocalSearchEngine(SITE_RECORDS);
  const hits = engine.rank('measurement');
  const urls = hits.map((h) => h.record.url);
  assert.equal(new Set(urls).size, urls.length, 'distinct by url');
  assert.equal(hits[0]!.record.type, 'lvl1');
  assert.ok(urls[0] === `${ORIGIN}/docs/v2/measurement` || urls[0] === `${ORIGIN}/docs/v1/measurement`);
  assert.equal(engine.rank('documentation', ['docusaurus_tag:docs-default-current']).some((h) => h.record.url === `${ORIGIN}/`), false);
  assert.equal(engine.rank('documentation', ['docusaurus_tag:default'])[0]!.record.url, `${ORIGIN}/`);
  // Every word must match; if none can all match together, any word may.
  assert.equal(engine.rank('switch lock')[0]!.record.url, `${ORIGIN}/docs/v1/state#switch-lock`);
  assert.ok(engine.rank('switch zzzz').length > 0);
  // Stop words do not decide: "the" alone still finds a heading that has it.
  assert.equal(engine.rank('enable the token')[0]!.record.url.startsWith(`${ORIGIN}/docs/v2/authorization`), true);
  assert.ok(engine.rank('the').some((h) => h.record.hierarchy.lvl2 === 'The X-Api-Version header'));
});

test('typos are forgiven when the words as typed find too little, and only those typos are marked', () => {
  const engine = new LocalSearchEngine(SITE_RECORDS);
  assert.equal(engine.rank('mesurement')[0]!.record.url, `${ORIGIN}/docs/v2/measurement`);
  assert.equal(engine.rank('bearer tokn')[0]!.record.url, `${ORIGIN}/docs/v2/authorization`);
  const typo = answerQuery(engine, 'i', {...modalParams('bearer tokn'), attributesToSnippet: ['content:30']});
  assert.match(String((typo.hits[0]!._snippetResult as {content: {value: string}}).content.value), /<mark>token<\/mark>/);
  // A word found as typed often enough brings no typo matches ("wafer" for "water"), in the
  // ranking or in the marks; with fewer hits it would.
  const para = (anchor: string, content: string) => paragraphRecord('docs/v1/water', 'Meters', anchor, content);
  const meters = [1, 2, 3, 4, 5].map((n) => para(`m${n}`, `Water meter ${n} next to a wafer.`));
  const many = new LocalSearchEngine([...SITE_RECORDS, ...meters, para('wafer', 'A wafer-thin plate.')]);
  const exact = answerQuery(many, 'i', {...modalParams('water'), attributesToSnippet: ['content:30']});
  assert.equal(exact.nbHits, 6, 'five meters and the gas-and-water section');
  assert.ok(!exact.hits.some((h) => h.url!.endsWith('#wafer')));
  assert.doesNotMatch(JSON.stringify(exact.hits), /<mark>wafer/);
  const few = new LocalSearchEngine([...SITE_RECORDS, para('wafer', 'A wafer-thin plate.')]);
  assert.ok(few.rank('water').some((h) => h.record.url.endsWith('#wafer')));
});

test('one hit per section: the heading when it holds every word, else the paragraph that does', () => {
  const engine = new LocalSearchEngine(SITE_RECORDS);
  const heading = engine.rank('create user');
  assert.equal(heading[0]!.record.url, `${ORIGIN}/docs/v2/authorization#create-a-user`);
  assert.equal(heading[0]!.record.type, 'lvl2');
  const paragraph = engine.rank('pressing button');
  assert.equal(paragraph[0]!.record.url, `${ORIGIN}/docs/v2/authorization#create-a-user`);
  assert.equal(paragraph[0]!.record.type, 'content');
  // Words found only in different paragraphs of one section rank below a paragraph that holds
  // them together (few sections hold them together here).
  const para = (anchor: string, content: string) => paragraphRecord('docs/v2/websocket', 'Websocket', anchor, content);
  const ws = new LocalSearchEngine([
    ...SITE_RECORDS,
    para('apart', 'Send a subscribe message first.'),
    para('apart', 'The device then streams each topic.'),
    para('together', 'Subscribe to a topic to get its messages.'),
  ]);
  assert.deepEqual(ws.rank('subscribe topic').map((h) => h.record.url), [`${ORIGIN}/docs/v2/websocket#together`, `${ORIGIN}/docs/v2/websocket#apart`]);
  // …and when no paragraph holds them together, the section still answers, first; then (query
  // relaxation: fewer than 3 hits) the sections holding some of the words.
  assert.deepEqual(ws.rank('streams message').map((h) => h.record.url), [`${ORIGIN}/docs/v2/websocket#apart`, `${ORIGIN}/docs/v2/websocket#together`]);
});

test('the page of hits the modal asks for is the head of the full ranking', () => {
  // Enough sections that only the best are put in order (the rest are only counted).
  const base = SITE_RECORDS.find((r) => r.type === 'content' && r.hierarchy.lvl2 !== null)!;
  const words = ['power', 'meter', 'water', 'gas', 'socket', 'battery', 'voltage'];
  const many = Array.from({length: 600}, (_, i) => {
    const page = `${ORIGIN}/docs/p${i % 40}`;
    const anchor = `s${i}`;
    const text = Array.from({length: 3 + (i % 11)}, (_, k) => words[(i * 7 + k * (i % 5 + 1)) % words.length]).join(' ');
    return {...base, url: `${page}#${anchor}`, url_without_anchor: page, anchor, hierarchy: {...base.hierarchy, lvl1: `Page ${i % 40}`, lvl2: `Section ${words[i % 7]} ${i}`}, content: text, weight: {...base.weight, position: i % 3}};
  });
  const engine = new LocalSearchEngine([...recordsWithLongParagraph(), ...many]);
  for (const q of ['p', 'po', 'power', 'meter gas', 'section wat', 'battery socket voltage']) {
    const full = engine.rank(q, ['language:en']).map((h) => h.record.url);
    assert.ok(full.length > 200 || q.includes(' '), `${q}: ${full.length} hits`);
    for (const need of [20, 40]) {
      const page = engine.search(q, ['language:en'], need);
      assert.equal(page.total, full.length, q);
      assert.deepEqual(page.hits.map((h) => h.record.url), full.slice(0, need), q);
      assert.deepEqual(new Set(page.sections().map((s) => engine.leadRecord(s).url)), new Set(full), q);
      // a later page: the records of that page only (records are picked after ranking)
      const later = engine.search(q, ['language:en'], need, true, need - 20);
      assert.deepEqual(later.hits.map((h) => h.record.url), full.slice(need - 20, need), q);
    }
    const second = answerQuery(engine, 'i', {query: q, page: 1, hitsPerPage: 20, facetFilters: ['language:en']});
    assert.deepEqual(second.hits.map((h) => h.url), full.slice(20, 40), q);
  }
});

test('modal order groups by lvl0 (at most 5 each), as DocSearch shows hits', () => {
  const engine = new LocalSearchEngine(SITE_RECORDS);
  const hits = answerQuery(engine, 'i', modalParams('api')).hits;
  const shown = modalOrder(hits);
  const groups = shown.map((h) => h.hierarchy!.lvl0);
  const firstSeen = groups.filter((g, i) => groups.indexOf(g) === i);
  assert.deepEqual(groups, firstSeen.flatMap((g) => groups.filter((x) => x === g)), 'each group shown together');
  for (const g of firstSeen) assert.ok(groups.filter((x) => x === g).length <= 5);
});

test('a page and a heading are stored once, not on every record under them', () => {
  // A page as the extractor writes it: title, intro, a section with three paragraphs.
  const page = `${ORIGIN}/docs/v2/batteries`;
  const base = {url_without_anchor: page, language: 'en', docusaurus_tag: 'docs-default-current', version: 'current'};
  const levels = (l1: string, l2: string | null = null) => ({lvl0: 'API v2', lvl1: l1, lvl2: l2, lvl3: null, lvl4: null, lvl5: null, lvl6: null});
  const records = recordListSchema.parse([
    {...base, objectID: 'a', url: page, anchor: null, type: 'lvl1', hierarchy: levels('Batteries'), content: null, weight: {pageRank: 0, level: 90, position: 0}},
    {...base, objectID: 'b', url: page, anchor: null, type: 'content', hierarchy: levels('Batteries'), content: 'Control the batteries.', weight: {pageRank: 0, level: 0, position: 1}},
    {...base, objectID: 'c', url: `${page}#battery-mode`, anchor: 'battery-mode', type: 'lvl2', hierarchy: levels('Batteries', 'Battery mode'), content: null, weight: {pageRank: 0, level: 80, position: 0}},
    ...['zero', 'to_full', 'standby'].map((m, i) => ({
      ...base,
      objectID: `d${i}`,
      url: `${page}#battery-mode`,
      anchor: 'battery-mode',
      type: 'content',
      hierarchy: levels('Batteries', 'Battery mode'),
      content: `The mode ${m}.`,
      weight: {pageRank: 0, level: 0, position: i + 1},
    })),
  ]);
  const file = packRecords(records, ORIGIN);
  const json = JSON.stringify(file);
  for (const once of ['"Batteries"', '"Battery mode"', '"API v2"', 'docs-default-current', '/docs/v2/batteries']) {
    assert.equal(json.split(once).length - 1, 1, `${once} appears once in ${json}`);
  }
  assert.deepEqual(file.exceptions, [], 'every record is where the layout predicts it');
  assert.deepEqual(unpackRecords(JSON.parse(json)).map((r) => ({...r, objectID: ''})), records.map((r) => ({...r, objectID: ''})));
});

test('local objectIDs are stable: editing one paragraph renames no other record', () => {
  const records = recordListSchema.parse(SITE_RECORDS);
  const before = unpackRecords(JSON.parse(JSON.stringify(packRecords(records, ORIGIN))));
  const i = records.findIndex((r) => r.type === 'content');
  const edited = records.map((r, k) => (k === i ? {...r, content: `${r.content} (edited)`} : r));
  const inserted = [...edited.slice(0, i), {...records[i]!, content: 'A new paragraph.'}, ...edited.slice(i)];
  const after = unpackRecords(JSON.parse(JSON.stringify(packRecords(inserted, ORIGIN))));
  const kept = after.filter((r) => r.content !== 'A new paragraph.');
  assert.equal(kept.length, before.length);
  kept.forEach((r, k) => {
    if (k === i) assert.notEqual(r.objectID, before[k]!.objectID);
    else assert.equal(r.objectID, before[k]!.objectID, `record ${k}`);
  });
});

