/**
 * Ranking rules of issue 37: an identifier finds the section that defines it first, and a query
 * whose words are not all in one section is relaxed instead of coming back (nearly) empty.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {LocalSearchEngine, isIdentifier} from '../src/engine/search.ts';
import type {SearchRecord} from '../src/record/constants.ts';

const ORIGIN = 'https://docs.example.org';
let position = 0;

/** A heading record (`content` null) or a paragraph of section `anchor` of page `path`. */
function rec(path: string, anchor: string | null, levels: [string, ...string[]], content: string | null): SearchRecord {
  const hierarchy = {lvl0: levels[0], lvl1: null, lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null} as SearchRecord['hierarchy'];
  levels.forEach((v, i) => ((hierarchy as Record<string, string | null>)[`lvl${i}`] = v));
  const deepest = levels.length - 1;
  const type = content === null ? (`lvl${deepest}` as SearchRecord['type']) : 'content';
  return {
    objectID: `${path}#${anchor ?? ''}:${position}`,
    url: `${ORIGIN}${path}${anchor ? `#${anchor}` : ''}`,
    url_without_anchor: `${ORIGIN}${path}`,
    anchor,
    type,
    hierarchy,
    content,
    weight: {pageRank: 0, level: content === null ? 100 - 10 * deepest : 0, position: position++},
    language: 'en',
    docusaurus_tag: 'docs-default-current',
    version: 'current',
  };
}

const first = (engine: LocalSearchEngine, query: string) => engine.rank(query)[0]?.record.url.replace(ORIGIN, '');

test('an identifier finds the section whose table row or heading names it before the examples that quote it', () => {
  const records = [
    rec('/docs/measurement', null, ['API', 'Measurement'], null),
    rec('/docs/measurement', 'example', ['API', 'Measurement', 'Example'], null),
    rec('/docs/measurement', 'example', ['API', 'Measurement', 'Example'], '{ "power_w": 1234, "power_l1_w": 400, "voltage_v": 230.1 }'),
    rec('/docs/measurement', 'example', ['API', 'Measurement', 'Example'], 'Here power_w is negative: power_w goes below zero while power_w exports.'),
    rec('/docs/measurement', 'fields', ['API', 'Measurement', 'Fields'], null),
    rec('/docs/measurement', 'fields', ['API', 'Measurement', 'Fields'], 'energy_import_kwh · number · kWh · Energy imported from the grid.'),
    rec('/docs/measurement', 'fields', ['API', 'Measurement', 'Fields'], 'power_w · number · W · Total active power of the phases together, negative when exporting.'),
    rec('/docs/changelog', null, ['Docs', 'Changelog'], null),
    rec('/docs/changelog', 'y2025', ['Docs', 'Changelog', '2025'], null),
    rec('/docs/changelog', 'y2025', ['Docs', 'Changelog', '2025'], 'Added /api/system/reboot. Calling /api/system/reboot twice; see /api/system/reboot and user:unauthorized.'),
    rec('/docs/system', null, ['API', 'System'], null),
    rec('/docs/system', 'reboot', ['API', 'System', 'Reboot: PUT /api/system/reboot'], null),
    rec('/docs/system', 'reboot', ['API', 'System', 'Reboot: PUT /api/system/reboot'], 'Restarts the device.'),
    rec('/docs/errors', null, ['API', 'Errors'], null),
    rec('/docs/errors', 'codes', ['API', 'Errors', 'Codes'], 'The codes, user:unauthorized among them, are listed below; user:unauthorized is the usual one.'),
    rec('/docs/errors', 'unauthorized', ['API', 'Errors', 'user:unauthorized'], null),
    rec('/docs/errors', 'unauthorized', ['API', 'Errors', 'user:unauthorized'], 'The token is missing or not valid.'),
    rec('/docs/start', null, ['Docs', 'Start'], null),
    rec('/docs/start', 'call', ['Docs', 'Start', 'First call'], 'The path /api answers with the device information (GET /api).'),
    rec('/docs/device', null, ['API', 'Device'], null),
    rec('/docs/device', null, ['API', 'Device'], 'Method and path · GET /api'),
  ];
  const engine = new LocalSearchEngine(records);
  assert.equal(first(engine, 'power_w'), '/docs/measurement#fields', 'the field table row, not the example');
  assert.equal(first(engine, '/api/system/reboot'), '/docs/system#reboot', 'the heading naming the path');
  assert.equal(first(engine, 'user:unauthorized'), '/docs/errors#unauthorized', 'the heading naming the code');
  assert.equal(first(engine, '/api'), '/docs/device', 'the method-and-path cell');
  // (a plain word is no identifier: the word power still finds the sections that use it most)
  assert.notEqual(first(engine, 'power'), undefined);
});

test('identifier-shaped query words', () => {
  for (const t of ['active_power_l1_w', 'json:parameter-invalid-type', 'api/v2/batteries', 'hierarchy.lvl0', 'x-api-version']) assert.ok(isIdentifier(t), t);
  for (const t of ['power', 'plug-in', 'wi-fi', '3-phase', 'kwh meter']) assert.ok(!isIdentifier(t), t);
});

test('a question whose words are not all in one section is relaxed: the sections holding every word first, then those holding most, a rare word weighing more', () => {
  const records = [
    rec('/docs/auth', null, ['API', 'Authorization'], null),
    rec('/docs/auth', 'token', ['API', 'Authorization', 'Store the token'], 'Keep the token: it never expires on its own.'),
    rec('/docs/auth', 'revoke', ['API', 'Authorization', 'Delete a user'], 'Deleting the user revokes its token.'),
    rec('/docs/start', null, ['Docs', 'Getting started'], null),
    rec('/docs/start', 'ask', ['Docs', 'Getting started', 'Ask for a token'], 'Ask the device for a token with a button press.'),
    rec('/docs/start', 'use', ['Docs', 'Getting started', 'Use the token'], 'Send the token with every request to the device.'),
    rec('/docs/cert', null, ['API', 'Certificate'], null),
    rec('/docs/cert', 'validity', ['API', 'Certificate', 'Validity'], 'The device certificate expires in 2049, long after the device.'),
  ];
  const engine = new LocalSearchEngine(records);
  // `token expires`: one section holds both words; the others hold one of them.
  const hits = engine.rank('token expires').map((h) => h.record.url.replace(ORIGIN, ''));
  assert.equal(hits[0], '/docs/auth#token', 'the section holding every word first');
  assert.ok(hits.length >= 3, `not a hit or two when other sections hold some words (got ${hits.join(' ')})`);
  // `expires` is in 2 sections, `token` in 4: the section holding the rarer word comes next.
  assert.equal(hits[1], '/docs/cert#validity', 'then the section holding the rarer word');
  assert.ok(hits.indexOf('/docs/start#ask') > 1);
});

test('a section whose own heading is the query, word for word, ranks above the sections that only hold its words', () => {
  const records = [
    rec('/docs/versioning', null, ['Docs', 'Versioning'], null),
    rec('/docs/versioning', 'firmware', ['Docs', 'Versioning', 'Firmware needed per API version'], null),
    rec('/docs/versioning', 'firmware', ['Docs', 'Versioning', 'Firmware needed per API version'], 'Each API version needs a firmware version: firmware 6 for version 2.'),
    rec('/docs/device', null, ['API', 'Device information'], null),
    rec('/docs/device', 'firmware-version', ['API', 'Device information', 'Firmware version'], null),
    rec('/docs/device', 'firmware-version', ['API', 'Device information', 'Firmware version'], 'The version of the software the device runs.'),
  ];
  const engine = new LocalSearchEngine(records);
  assert.equal(first(engine, 'firmware version'), '/docs/device#firmware-version');
  assert.equal(first(engine, 'the firmware version'), '/docs/device#firmware-version', 'stop words aside');
});

test('a query of one word ranks the table row that defines it above the examples that quote it', () => {
  const records = [
    rec('/docs/battery', null, ['API', 'Battery'], null),
    rec('/docs/battery', 'example', ['API', 'Battery', 'Example'], null),
    rec('/docs/battery', 'example', ['API', 'Battery', 'Example'], 'Cycles go up by one a day: twelve cycles, thirteen cycles, cycles again.'),
    rec('/docs/battery', 'fields', ['API', 'Battery', 'Reference', 'Battery fields'], null),
    rec('/docs/battery', 'fields', ['API', 'Battery', 'Reference', 'Battery fields'], 'power_w · number · W · Active power of the battery, measured every second, signed.'),
    rec('/docs/battery', 'fields', ['API', 'Battery', 'Reference', 'Battery fields'], 'cycles · number · count · How many times the battery was charged and discharged in full.'),
    // (other sections, so that a word's rarity counts)
    ...['mode', 'power', 'errors', 'pairing', 'limits', 'network'].map((a) => rec('/docs/battery', a, ['API', 'Battery', a], `The ${a} of the battery.`)),
  ];
  const engine = new LocalSearchEngine(records);
  assert.equal(first(engine, 'cycles'), '/docs/battery#fields');
  // (two words are no field name: the scores decide)
  assert.equal(first(engine, 'cycles again'), '/docs/battery#example');
  // A section of paragraphs only (no heading record) is named by the heading they sit under:
  // it defines the word too, above an example that scores higher under a page titled with it.
  const paragraphsOnly = new LocalSearchEngine([
    ...records.slice(6),
    rec('/docs/cycles', 'example', ['API', 'Cycles', 'Example'], null),
    rec('/docs/cycles', 'example', ['API', 'Cycles', 'Example'], 'Cycles go up by one a day: twelve cycles, thirteen cycles, cycles again.'),
    rec('/docs/counts', 'cycles', ['API', 'Counts', 'Battery', 'Counters', 'Totals', 'Cycles'], 'How many times the battery was charged and discharged in full.'),
  ]);
  const order = paragraphsOnly.rank('cycles').map((h) => h.record.url.replace(ORIGIN, ''));
  assert.ok(order.indexOf('/docs/counts#cycles') < order.indexOf('/docs/cycles#example'), order.join(' '));
});

test('of two headings that are the query, the one with its words in the query\'s order ranks first; a question\'s words count as the query drops them', () => {
  const records = [
    rec('/docs/v2/measurement', null, ['API v2', 'Measurement'], null),
    rec('/docs/v2/measurement', 'external', ['API v2', 'Measurement', 'Gas, water and heat meters (external)'], null),
    rec('/docs/v2/measurement', 'external', ['API v2', 'Measurement', 'Gas, water and heat meters (external)'], 'External meters: gas meters, water meters and heat meters, each external to the P1 meter.'),
    rec('/docs/v1/measurement', null, ['API v1', 'Measurement'], null),
    rec('/docs/v1/measurement', 'external', ['API v1', 'Measurement', 'External meters: gas, water and heat'], null),
    rec('/docs/v1/measurement', 'external', ['API v1', 'Measurement', 'External meters: gas, water and heat'], 'The list of meters.'),
    rec('/docs/faq', null, ['Docs', 'Questions'], null),
    rec('/docs/faq', 'limit', ['Docs', 'Questions', 'Polling: how often, and is there a limit?'], null),
    rec('/docs/faq', 'limit', ['Docs', 'Questions', 'Polling: how often, and is there a limit?'], 'Poll often, poll every second: how often to poll depends on the device.'),
    rec('/docs/start', null, ['Docs', 'Getting started'], null),
    rec('/docs/start', 'poll', ['Docs', 'Getting started', 'How often to poll'], null),
    rec('/docs/start', 'poll', ['Docs', 'Getting started', 'How often to poll'], 'Once a second.'),
  ];
  const engine = new LocalSearchEngine(records);
  assert.equal(first(engine, 'external meters: gas, water and heat'), '/docs/v1/measurement#external');
  assert.equal(first(engine, 'gas, water and heat meters (external)'), '/docs/v2/measurement#external');
  assert.equal(first(engine, 'How often to poll'), '/docs/start#poll');
});

test('a query word no section holds (another product\'s name) is not required: the other words answer as if it were not typed', () => {
  const records = [
    rec('/docs/notes', null, ['Docs', 'Notes'], null),
    rec('/docs/notes', 'misc', ['Docs', 'Notes', 'Miscellaneous'], 'A token, a token, the token again: every token counts.'),
    rec('/docs/notes', 'misc', ['Docs', 'Notes', 'Miscellaneous'], 'The device, any device, one more device.'),
    rec('/docs/pair', null, ['API', 'Pairing'], null),
    rec('/docs/pair', 'ask', ['API', 'Pairing', 'Ask'], 'Press the button on the device to get a token for your integration, then store it safely.'),
  ];
  const engine = new LocalSearchEngine(records);
  // (without `homey`, the words stand together in one paragraph of the pairing section only)
  assert.equal(first(engine, 'token device'), '/docs/pair#ask');
  assert.equal(first(engine, 'homey token device'), '/docs/pair#ask', 'the unknown word changes nothing');
  // (a word found only through a typo is still a word: `tokn` finds `token`)
  assert.equal(first(engine, 'tokn device'), '/docs/pair#ask');
});

test('a page outside the documentation (the landing page) ranks below a documentation page that holds the same words', () => {
  const landing = (anchor: string | null, levels: [string, ...string[]], content: string | null) => ({...rec('/', anchor, levels, content), docusaurus_tag: 'default', version: undefined});
  const records = [
    landing(null, ['Home'], null),
    landing('products', ['Home', 'Products'], 'Every device answers on the local network.'),
    rec('/docs/discovery', null, ['Docs', 'Discovery'], null),
    rec('/docs/discovery', 'mdns', ['Docs', 'Discovery', 'mDNS'], 'Find a device on the local network with mDNS: it announces itself with its name, type and serial number.'),
  ];
  const engine = new LocalSearchEngine(records as SearchRecord[]);
  assert.equal(first(engine, 'device local network'), '/docs/discovery#mdns');
  // (the landing page still answers what only it holds)
  assert.equal(first(engine, 'answers'), '/#products');
});
