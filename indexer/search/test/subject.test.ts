/**
 * Questions ranked by their subject: a query naming a section's subject in its title
 * or headings ranks it above sections that only share the query's other words, and the words of
 * a question never decide the order.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {answerQuery, modalParams} from '../src/engine/answer.ts';
import {LocalSearchEngine} from '../src/engine/search.ts';
import {stem} from '../src/engine/text.ts';
import {ORIGIN, SITE_RECORDS} from '../src/testing/search-records.ts';

const base = SITE_RECORDS.find((r) => r.type === 'content' && r.hierarchy.lvl2 !== null)!;
/** A paragraph under heading `heading` of page `path` (titled `title`). */
function paragraph(path: string, title: string, heading: string, content: string) {
  const anchor = heading.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return {
    ...base,
    objectID: `${path}#${anchor}:${content.length}`,
    url: `${ORIGIN}/${path}#${anchor}`,
    url_without_anchor: `${ORIGIN}/${path}`,
    anchor,
    hierarchy: {...base.hierarchy, lvl1: title, lvl2: heading},
    content,
  };
}
const urls = (engine: LocalSearchEngine, q: string) => engine.rank(q).map((h) => h.record.url);

const RECORDS = [
  ...SITE_RECORDS,
  paragraph('docs/errors', 'Error handling', '202: API_DISABLED', 'The local API of this device is switched off in the app; switch it on.'),
  paragraph('docs/system', 'System', 'cloud_enabled', 'The API reports the cloud link; when it is disabled, fault reporting stops.'),
  paragraph('docs/system', 'System', 'led', 'The API sets the brightness of the status light; reporting is not affected.'),
];

test('a heading naming the subject ranks above paragraphs that only share the other words', () => {
  const engine = new LocalSearchEngine(RECORDS);
  // The cloud paragraph holds every word ("reporting", "api", "disabled"); the error's heading
  // names the subject, API_DISABLED, and lacks only the incidental "reporting".
  assert.equal(urls(engine, 'reporting API is disabled')[0], `${ORIGIN}/docs/errors#202-api-disabled`);
  assert.ok(urls(engine, 'reporting API is disabled').includes(`${ORIGIN}/docs/system#cloud-enabled`));
  // Without a heading naming it, the section holding every word comes first, as before.
  assert.equal(urls(engine, 'cloud reporting disabled')[0], `${ORIGIN}/docs/system#cloud-enabled`);
});

test('a section holding every word under a title naming one of them keeps its place above a heading naming two', () => {
  const engine = new LocalSearchEngine([
    ...SITE_RECORDS,
    paragraph('docs/batteries', 'Batteries', 'In an integration', 'To support the plug-in battery in an integration, read its mode first.'),
    paragraph('docs/fields', 'Fields', 'Plug-in battery fields', 'The charge and the power of the plug-in battery, as numbers.'),
  ]);
  // The fields heading names "plug" and "battery" but lacks "support"; the Batteries page holds
  // every word in one paragraph, under a title naming "battery": it is on the subject, not there by chance.
  assert.equal(urls(engine, 'plug in battery support')[0], `${ORIGIN}/docs/batteries#in-an-integration`);
});

test('the words of a question never decide the order, wherever they stand', () => {
  const engine = new LocalSearchEngine(RECORDS);
  const plain = urls(engine, 'brightness status light');
  for (const q of [
    'how brightness status light',
    'which brightness status light',
    'does the brightness status light',
    'can i brightness status light',
    'brightness status light how',
    'brightness status light can i',
    "status light brightness doesn't",
    'status light brightness doesn\u2019t',
    "status light's brightness",
    "brightness status light, it's",
  ]) {
    assert.deepEqual(urls(engine, q).slice(0, 3), plain.slice(0, 3), q);
  }
});

test('a verb form of a three-letter word keeps its doubled letter: adding finds add', () => {
  assert.equal(stem('adding'), 'add');
  assert.equal(stem('added'), 'add');
  assert.equal(stem('running'), 'run');
  assert.equal(stem('polling'), 'poll');
  // and the engine finds the three-letter form (it looked up forms of 4 letters or more only)
  const engine = new LocalSearchEngine([
    ...SITE_RECORDS,
    paragraph('docs/pair', 'Pair', 'add', 'Add the meter to your app.'),
    paragraph('docs/start', 'Getting started', 'getting', 'Getting the first answer.'),
  ]);
  assert.ok(urls(engine, 'adding meter').includes(`${ORIGIN}/docs/pair#add`), 'adding finds add');
  assert.match(JSON.stringify(answerQuery(engine, 'i', modalParams('adding meter')).hits.map((h) => h._snippetResult)), /<mark>Add<\/mark>/);
  // a query word of three letters stays itself: get does not find getting
  assert.ok(!urls(engine, 'get ').includes(`${ORIGIN}/docs/start#getting`), 'get does not find getting');
});

test('a stop word ending a query is dropped, not read as a word being typed', () => {
  const engine = new LocalSearchEngine([
    ...SITE_RECORDS,
    paragraph('docs/find', 'Find', 'Find a device', 'Find a device on the network with mDNS.'),
    paragraph('docs/items', 'Items', 'Items', 'The items of the list: find them in the app.'),
  ]);
  // (`it` as a word being typed would find `items`, and the page holding both words first)
  assert.equal(urls(engine, 'where can i find it')[0], `${ORIGIN}/docs/find#find-a-device`);
  assert.deepEqual(urls(engine, 'where can i find it').slice(0, 3), urls(engine, 'where can i find').slice(0, 3));
  // (a query of two words too: `find it` is `find`)
  assert.deepEqual(urls(engine, 'find it').slice(0, 3), urls(engine, 'find').slice(0, 3));
});

test('a query no section or page holds whole is answered by the page holding most of its words first', () => {
  const engine = new LocalSearchEngine([
    ...SITE_RECORDS,
    paragraph('docs/pair', 'Pairing', 'Alpha', 'The alpha step of pairing.'),
    paragraph('docs/pair', 'Pairing', 'Beta', 'The beta step of pairing.'),
    paragraph('docs/other', 'Gamma', 'Gamma mode', 'Gamma, gamma and gamma: the gamma mode of the gamma relay.'),
  ]);
  // no section holds two of the words, no page all three: an OR of the words, where the page
  // holding two of them comes before the page that says the third one often
  const found = urls(engine, 'alpha beta gamma');
  assert.equal(found.length, 3);
  assert.deepEqual(found.slice(0, 2).map((u) => u.split('#')[0]), [`${ORIGIN}/docs/pair`, `${ORIGIN}/docs/pair`]);
});

test('pages on other subjects added to the site do not make a heading word rare: the subject rule answers alike', () => {
  // "api" and "disabled" head five sections each: neither is a word few headings hold, so the
  // section holding every word keeps its place above the heading API_DISABLED.
  const others = ['Switch', 'Button', 'Display', 'Meter'].map((t) => paragraph(`docs/${t.toLowerCase()}`, t, `API: disabled ${t.toLowerCase()}`, `When the ${t.toLowerCase()} is off.`));
  const site = [...RECORDS, ...others];
  // 400 sections of made-up words, none of the query's
  const made = (k: number) => `zq${k.toString(36)}`;
  const grown = [...site, ...Array.from({length: 400}, (_, k) => paragraph(`docs/zq/p${k >> 2}`, `${made(k)} page`, `${made(k + 1000)} ${made(k + 2000)}`, `${made(k + 3000)} ${made(k + 4000)} ${made(k + 5000)}.`))];
  const q = 'reporting API is disabled';
  assert.equal(urls(new LocalSearchEngine(site), q)[0], `${ORIGIN}/docs/system#cloud-enabled`);
  assert.equal(urls(new LocalSearchEngine(grown), q)[0], `${ORIGIN}/docs/system#cloud-enabled`);
});
