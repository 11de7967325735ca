/**
 * Typos, word forms and many-word questions (issue 16).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {answerQuery, modalParams} from '../src/engine/answer.ts';
import {LocalSearchEngine} from '../src/engine/search.ts';
import {editDistanceWithin, stem} from '../src/engine/text.ts';
import {ORIGIN, SITE_RECORDS} from '../src/testing/search-records.ts';

const urls = (engine: LocalSearchEngine, q: string) => engine.rank(q).map((h) => h.record.url);

/** A paragraph alone in section `anchor` of page `path` (titled `title`). */
function paragraph(path: string, title: string, anchor: string, content: string) {
  const base = SITE_RECORDS.find((r) => r.type === 'content' && r.hierarchy.lvl2 !== null)!;
  return {
    ...base,
    objectID: `${path}#${anchor}:${content.length}`,
    url: `${ORIGIN}/${path}#${anchor}`,
    url_without_anchor: `${ORIGIN}/${path}`,
    anchor,
    hierarchy: {...base.hierarchy, lvl1: title, lvl2: anchor},
    content,
  };
}

test('a transposition of two neighbouring letters is one edit', () => {
  assert.ok(editDistanceWithin('mdsn', 'mdns', 1));
  assert.ok(editDistanceWithin('telegarm', 'telegram', 1));
  assert.ok(!editDistanceWithin('mdsn', 'dnsm', 1));
  const engine = new LocalSearchEngine(SITE_RECORDS);
  assert.equal(urls(engine, 'mdsn')[0], `${ORIGIN}/docs/discovery#mdns`);
  // the word found is marked, as for any typo
  const hit = answerQuery(engine, 'i', modalParams('mdsn')).hits[0]!;
  assert.match(JSON.stringify(hit._snippetResult), /<mark>mDNS<\/mark>/);
});

test('a number is never a typo of another number: 2023 does not find 2024', () => {
  const engine = new LocalSearchEngine([
    ...SITE_RECORDS,
    paragraph('docs/changelog', 'Changelog', '2023', 'The changes of that year.'),
    paragraph('docs/changelog', 'Changelog', '2024', 'The changes of the next year.'),
    paragraph('docs/changelog', 'Changelog', '2025', 'More changes.'),
  ]);
  assert.deepEqual(urls(engine, '2023'), [`${ORIGIN}/docs/changelog#2023`]);
  // a word of letters still forgives one
  assert.equal(urls(engine, 'chnages')[0]?.startsWith(`${ORIGIN}/docs/changelog#`), true);
});

test('plural and verb forms match, below the word as typed; identifiers stay exact', () => {
  assert.equal(stem('batteries'), stem('battery'));
  assert.equal(stem('creating'), stem('create'));
  assert.equal(stem('polling'), stem('poll'));
  assert.equal(stem('tokens'), stem('token'));
  // a noun in -ion meets its verb; -ation does not (`authorisation` must not meet `authorize`)
  assert.equal(stem('connections'), stem('connecting'));
  assert.equal(stem('selection'), stem('selected'));
  assert.notEqual(stem('authorization'), stem('authorize'));
  assert.equal(stem('total_power_import_kwh'), 'total_power_import_kwh');
  const engine = new LocalSearchEngine([
    ...SITE_RECORDS,
    paragraph('docs/v2/batteries', 'Batteries', 'modes', 'The batteries follow one mode.'),
    paragraph('docs/v2/battery', 'Battery', 'one', 'One battery reports its own state.'),
  ]);
  assert.ok(urls(engine, 'tokens ').includes(`${ORIGIN}/docs/v2/authorization`), 'tokens finds token');
  assert.ok(urls(engine, 'creating user').some((u) => u.endsWith('#create-a-user')), 'creating finds create');
  // exact form first, the other form after it
  assert.deepEqual(urls(engine, 'batteries ').slice(0, 2), [`${ORIGIN}/docs/v2/batteries#modes`, `${ORIGIN}/docs/v2/battery#one`]);
  assert.deepEqual(urls(engine, 'battery ').slice(0, 2), [`${ORIGIN}/docs/v2/battery#one`, `${ORIGIN}/docs/v2/batteries#modes`]);
  const marked = JSON.stringify(answerQuery(engine, 'i', modalParams('battery ')).hits.map((h) => h._snippetResult));
  assert.match(marked, /<mark>batteries<\/mark>/);
});

test('a typo or a completion ranks below the word as typed in the same field', () => {
  const engine = new LocalSearchEngine([
    ...SITE_RECORDS,
    paragraph('docs/a', 'A', 'tele', 'The tele port.'),
    paragraph('docs/b', 'B', 'telegram', 'The telegram port.'),
  ]);
  assert.equal(urls(engine, 'tele')[0], `${ORIGIN}/docs/a#tele`);
});

test('a word the index holds in no form, one typo from a single word, is read as that word', () => {
  const records = [
    ...SITE_RECORDS,
    paragraph('docs/system', 'System', 'Reboot: PUT /api/system/reboot', 'A reboot restarts the device; reboot it after an update.'),
    paragraph('docs/device', 'Support', 'what a device supports', 'Which device takes a reboot request.'),
    // (a word most sections hold, and some headings: `device`, as on the site)
    ...['wifi', 'led', 'cloud', 'identify', 'users', 'errors', 'setup', 'limits'].map((a, k) => paragraph('docs/more', 'More', k < 3 ? `device ${a}` : a, `How the device handles ${a}.`)),
  ];
  const engine = new LocalSearchEngine(records);
  const reboot = urls(engine, 'reboot the device');
  assert.equal(reboot[0], `${ORIGIN}/docs/system#Reboot: PUT /api/system/reboot`);
  // `rebot` is one letter from `reboot` and from no other word: every section it finds needs
  // that typo, so the typo does not make it weigh less than `device`, and it answers as `reboot`
  assert.deepEqual(urls(engine, 'rebot the device').slice(0, 2), reboot.slice(0, 2));
  // one letter from `robot` too: which word was meant is unsure, each counts as a typo, and
  // `device` as typed decides
  const twoNear = new LocalSearchEngine([...records, paragraph('docs/robot', 'Robot', 'arm', 'A robot arm.')]);
  assert.equal(urls(twoNear, 'rebot the device')[0], `${ORIGIN}/docs/device#what a device supports`);
});

test('many words: sections holding all but one word, and pages holding every word, follow', () => {
  const engine = new LocalSearchEngine([
    ...SITE_RECORDS,
    paragraph('docs/socket', 'Socket', 'relay', 'The energy socket has a relay.'),
    paragraph('docs/socket', 'Socket', 'switch', 'Switch it off with a request.'),
    paragraph('docs/other', 'Other', 'off', 'Turn the energy relay off.'),
    paragraph('docs/third', 'Third', 'all', 'An energy socket relay you can switch off.'),
  ]);
  const found = urls(engine, 'energy socket relay off');
  // the one section with every word and the section whose title and heading name the subject
  // (Socket › relay, lacking only `off`, scored above it: see subject.test.ts), then a section
  // with all but one word
  assert.deepEqual(found.slice(0, 2), [`${ORIGIN}/docs/socket#relay`, `${ORIGIN}/docs/third#all`]);
  assert.ok(found.includes(`${ORIGIN}/docs/other#off`) && found.indexOf(`${ORIGIN}/docs/other#off`) > 1);
  // question words do not have to match
  assert.equal(urls(engine, 'how do i switch the relay off')[0], `${ORIGIN}/docs/third#all`);
});

test('words stand together only as whole words: a completion of a known word does not count', () => {
  // `off` is a word of the index: `offers` holds it only as a completion.
  const x = [paragraph('docs/x', 'Plugs', 'socket', 'The socket offers power.'), paragraph('docs/x', 'Plugs', 'socket', 'Turn it off at night.')];
  const y = paragraph('docs/y', 'Other', 'switching', 'The socket is switched off.');
  const list = urls(new LocalSearchEngine([...SITE_RECORDS, ...x, y]), 'socket off');
  const at = (anchor: string) => list.findIndex((u) => u.endsWith(anchor));
  assert.ok(at('#switching') >= 0 && (at('#socket') < 0 || at('#switching') < at('#socket')), list.join('\n'));
});

test('with no section holding every word together, most words together ranks first', () => {
  // (a's heading holds two words, which weighs more than b's paragraph, but no record of a
  // holds three)
  const a = ['zeta kappa here.', 'lambda there.', 'sigma too.'].map((c) => paragraph('docs/a', 'Alpha', 'zeta kappa', c));
  const b = ['zeta kappa lambda together.', 'sigma elsewhere.'].map((c) => paragraph('docs/b', 'Beta', 'notes', c));
  const list = urls(new LocalSearchEngine([...SITE_RECORDS, ...a, ...b]), 'zeta kappa lambda sigma ');
  assert.deepEqual(list.slice(0, 2), [`${ORIGIN}/docs/b#notes`, `${ORIGIN}/docs/a#zeta kappa`]);
});
