import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {extractPage, extractPageDetailed} from '../src/extract/extract.ts';
import {MAX_RECORD_BYTES, searchRecordSchema, type SearchRecord} from 'docs-search/record';
import {fixture} from './helpers.ts';

const RICH_URL = 'https://homewizard-api-docs.github.io/docs/v1/fixture-rich';
const rich = async (): Promise<SearchRecord[]> =>
  extractPage(await readFile(fixture('docusaurus-rich', 'page.html'), 'utf8'), {url: RICH_URL});
const contents = (records: SearchRecord[]): (string | null)[] => records.filter((r) => r.type === 'content').map((r) => r.content);

test('a Docusaurus page gives the DocSearch hierarchy: sidebar category, title, headings with anchors', async () => {
  const records = await rich();
  const headings = records.filter((r) => r.type !== 'content').map((r) => [r.type, r.hierarchy.lvl0, r.hierarchy.lvl1, r.hierarchy.lvl2, r.hierarchy.lvl3, r.hierarchy.lvl4, r.url]);
  assert.deepEqual(headings, [
    ['lvl1', 'API v1', 'Rich fixture', null, null, null, RICH_URL],
    ['lvl2', 'API v1', 'Rich fixture', 'Response fields', null, null, `${RICH_URL}#response-fields`],
    ['lvl3', 'API v1', 'Rich fixture', 'Response fields', 'Example request', null, `${RICH_URL}#example-request`],
    ['lvl2', 'API v1', 'Rich fixture', 'Errors', null, null, `${RICH_URL}#errors`],
    ['lvl4', 'API v1', 'Rich fixture', 'Errors', null, 'Deep heading', `${RICH_URL}#deep-heading`],
  ]);
  const lvl3 = records.find((r) => r.type === 'lvl3');
  assert.deepEqual(lvl3?.weight, {pageRank: 0, level: 70, position: 0});
  assert.equal(lvl3?.anchor, 'example-request');
  assert.equal(lvl3?.url_without_anchor, RICH_URL);
});

test('content covers paragraphs, list items, table rows, code, admonitions, details and every tab', async () => {
  const records = await rich();
  assert.deepEqual(contents(records), [
    'The first paragraph explains active_power_w and links to the measurement page.',
    'active_power_w · number · W · Active power, summed over phases.',
    'total_power_import_kwh · number · kWh · Energy imported in total.',
    'A list item with emphasis.',
    'A parent item',
    'A nested item.',
    'curl http://192.168.1.10/api/v1/data',
    'xss.html',
    '&lt;img src=x onerror=alert(1)&gt;',
    'The user:unauthorized code is unverified &amp; may change.',
    'Custom title here',
    'Admonition body text.',
    'Show more',
    'Hidden detail paragraph.',
    'Tab one paragraph.',
    'Tab two paragraph.',
    'Deep paragraph.',
  ]);
  const row = records.find((r) => r.content?.startsWith('active_power_w'));
  assert.equal(row?.url, `${RICH_URL}#response-fields`);
  assert.equal(row?.hierarchy.lvl2, 'Response fields');
  assert.deepEqual(row?.weight, {pageRank: 0, level: 0, position: 1});
});

test('navbar, sidebar, breadcrumbs, TOC, pagination, edit link, tab labels, hash links and copy buttons are not indexed', async () => {
  const text = JSON.stringify(await rich());
  for (const noise of ['Edit this page', 'Direct link', 'On this page', 'Previous', 'Next', 'Copy code', 'Skip to main content', 'Toggle navigation', 'Python', 'caution', 'Device information', '\u200b']) {
    assert.ok(!text.includes(noise), `records contain "${noise}"`);
  }
});

test('text is HTML-escaped exactly once: a tag in a code sample cannot execute', async () => {
  const records = await rich();
  const all = records.flatMap((r) => [r.content ?? '', ...Object.values(r.hierarchy).map((v) => v ?? '')]);
  assert.ok(all.includes('&lt;img src=x onerror=alert(1)&gt;'));
  assert.ok(all.every((t) => !/<[a-z]/i.test(t)), 'no raw tag in any text field');
  assert.ok(all.every((t) => !t.includes('&amp;lt;')), 'nothing escaped twice');
});

test('every docsearch meta tag is copied onto every record', async () => {
  const records = await rich();
  for (const r of records) {
    assert.equal(r.language, 'en');
    assert.equal(r.docusaurus_tag, 'docs-default-current');
    assert.equal(r.version, 'current');
    assert.equal(searchRecordSchema.safeParse(r).success, true);
  }
});

test('pageRank is applied to every record', async () => {
  const html = await readFile(fixture('docusaurus-rich', 'page.html'), 'utf8');
  assert.ok(extractPage(html, {url: RICH_URL, pageRank: 7}).every((r) => r.weight.pageRank === 7));
});

test('objectIDs are stable: extracting the same page twice gives the same IDs, all unique', async () => {
  const a = await rich();
  const b = await rich();
  assert.deepEqual(a.map((r) => r.objectID), b.map((r) => r.objectID));
  assert.equal(new Set(a.map((r) => r.objectID)).size, a.length);
});

test('inserting a paragraph changes only the records of its section, never those below it', async () => {
  const url = 'https://example.com/docs/sections';
  const before = extractPage(await readFile(fixture('insert-paragraph', 'before.html'), 'utf8'), {url});
  const after = extractPage(await readFile(fixture('insert-paragraph', 'after.html'), 'utf8'), {url});
  assert.equal(after.length, before.length + 1);
  const beforeById = new Map(before.map((r) => [r.objectID, r]));
  // Every old record keeps its ID; exactly one record is new.
  const added = after.filter((r) => !beforeById.has(r.objectID));
  assert.deepEqual(added.map((r) => r.content), ['An inserted paragraph.']);
  assert.ok(before.every((r) => after.some((a) => a.objectID === r.objectID)));
  // Only records of the "First" section differ at all (their position moved); the rest are identical.
  const changed = after.filter((r) => beforeById.has(r.objectID) && JSON.stringify(r) !== JSON.stringify(beforeById.get(r.objectID)));
  assert.deepEqual(changed.map((r) => [r.hierarchy.lvl2, r.hierarchy.lvl3, r.content]), [
    ['First', null, 'First paragraph two.'],
    ['First', null, 'Same text.'],
  ]);
});

test('identical paragraphs in one section get distinct, stable IDs', async () => {
  const url = 'https://example.com/docs/sections';
  const records = extractPage(await readFile(fixture('insert-paragraph', 'before.html'), 'utf8'), {url});
  const same = records.filter((r) => r.content === 'Same text.');
  assert.equal(same.length, 2);
  assert.notEqual(same[0]?.objectID, same[1]?.objectID);
  assert.equal(records[0]?.hierarchy.lvl0, 'API v2');
});

test('no record exceeds 10 KB: long text is split at word boundaries and keeps every word', () => {
  const words = Array.from({length: 6000}, (_, i) => `word${i}<&>`);
  const long = words.join(' ');
  const html = `<html><head><meta name=docsearch:language content=en></head><body><main><h1>Long</h1><p>${long.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p><p>${'x'.repeat(30000)}</p></main></body></html>`;
  const records = extractPage(html, {url: 'https://example.com/long'});
  const pieces = records.filter((r) => r.type === 'content');
  assert.ok(pieces.length > 4);
  for (const r of records) assert.ok(Buffer.byteLength(JSON.stringify(r)) <= MAX_RECORD_BYTES, `record of ${Buffer.byteLength(JSON.stringify(r))} bytes`);
  const escapedWords = words.map((w) => w.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  const text = pieces.slice(0, -4).map((r) => r.content).join(' ');
  assert.ok(text.startsWith(escapedWords.slice(0, 100).join(' ')));
  assert.equal(pieces.map((r) => r.content).join('').replace(/ /g, '').length, escapedWords.join('').length + 30000);
});

test('pages marked noindex and the not-found page are skipped', async () => {
  const noindex = extractPageDetailed(await readFile(fixture('noindex', 'page.html'), 'utf8'), {url: 'https://example.com/hidden'});
  assert.deepEqual([noindex.skipped, noindex.records.length], ['noindex', 0]);
  const missing = extractPageDetailed(await readFile(fixture('not-found', 'page.html'), 'utf8'), {url: 'https://example.com/oops'});
  assert.deepEqual([missing.skipped, missing.records.length], ['not-found', 0]);
});

test('lvl0 is "Documentation" for docs pages outside a category and "Home" for the home page', () => {
  const docs = extractPage('<html class="docs-wrapper plugin-docs"><body><main><h1>Intro</h1><p>Hi.</p></main></body></html>', {url: 'https://example.com/docs/intro'});
  assert.equal(docs[0]?.hierarchy.lvl0, 'Documentation');
  const home = extractPage('<html class="plugin-pages"><body><main><h1>Welcome</h1></main></body></html>', {url: 'https://example.com/'});
  assert.equal(home[0]?.hierarchy.lvl0, 'Home');
  // Without docsearch meta tags the facets still have values, so contextual search finds the page.
  assert.deepEqual([home[0]?.language, home[0]?.docusaurus_tag], ['en', 'default']);
});

test('a page without h1 takes its title from <title> without the site name', () => {
  const records = extractPage('<html><head><title>Plain page | My Site</title></head><body><main><p>Body.</p></main></body></html>', {url: 'https://example.com/plain'});
  assert.equal(records[0]?.hierarchy.lvl1, 'Plain page');
  assert.equal(records[1]?.content, 'Body.');
});

// The page is read in one streaming pass (page-reader.ts); these pin the cases where that pass
// must decide something before it has seen the whole page.
const texts = (html: string, url = 'https://example.com/docs/p'): [string, string | null][] =>
  extractPage(html, {url}).map((r) => [r.type, r.type === 'content' ? r.content : r.hierarchy[r.type]]);

test('the article is the skip-to-content target, else <main>, else <body>, even when a comment names the target', () => {
  const target = '<html><body><nav><p>Menu</p></nav><div id="__docusaurus_skipToContent_fallback"><h1>T</h1><p>In.</p></div><p>Out.</p></body></html>';
  assert.deepEqual(texts(target), [['lvl1', 'T'], ['content', 'In.']]);
  // The target's id appears only in a comment: the article is <main>.
  const main = '<html><body><!-- id="__docusaurus_skipToContent_fallback" --><header><p>Top.</p></header><main><h1>T</h1><p>In.</p></main></body></html>';
  assert.deepEqual(texts(main), [['lvl1', 'T'], ['content', 'In.']]);
  const body = '<html><head><title>T | Site</title></head><body><p>One.</p><div>Two.</div></body></html>';
  assert.deepEqual(texts(body), [['lvl1', 'T'], ['content', 'One.'], ['content', 'Two.']]);
  assert.deepEqual(texts('<h1>Bare</h1><p>Fragment.</p>'), [['lvl1', 'Bare'], ['content', 'Fragment.']]);
});

test('the first h1 is the title wherever it stands; text and headings before it keep their order', () => {
  const html = '<html><body><main><p>Intro.</p><h2 id="early">Early</h2><p>Under early.</p><h1>Title</h1><p>After.</p><h1>Second h1</h1></main></body></html>';
  assert.deepEqual(texts(html), [['lvl1', 'Title'], ['content', 'Intro.'], ['lvl2', 'Early'], ['content', 'Under early.'], ['content', 'After.'], ['lvl2', 'Second h1']]);
  // An h1 in the navbar is not the title.
  assert.equal(extractPage('<html><body><nav><h1>Brand</h1></nav><main><h1>Page</h1></main></body></html>', {url: 'https://example.com/x'})[0]?.hierarchy.lvl1, 'Page');
});

test('inline elements side by side keep their words apart, unless only a comment separates them', () => {
  const html = '<main><h1>T</h1><div><a>Cards</a><a>side</a> by <span>side</span></div><p><b>glued</b><!-- x --><i>words</i></p></main>';
  assert.deepEqual(contents(extractPage(html, {url: 'https://example.com/x'})), ['Cards side by side', 'gluedwords']);
});

test('an admonition keeps a custom title and drops the default one, without splitting the text around it', () => {
  const html = '<main><h1>T</h1><div class="admonition"><div class="admonitionHeading_abc">Note</div><div>Read this.</div></div>' +
    '<div><span>Before</span><div class="admonitionHeading_abc">Heads up</div></div><section>x<div class="admonitionHeading_abc">tip</div>y</section></main>';
  assert.deepEqual(contents(extractPage(html, {url: 'https://example.com/x'})), ['Read this.', 'Before', 'Heads up', 'xy']);
});

test('table rows: header rows and layout text are skipped, a row\'s non-cell children are ignored, captions kept', () => {
  const html = '<main><h1>T</h1><table><caption>Fields</caption>\n<thead><tr><td>name</td><td>unit</td></tr></thead>\n' +
    '<tbody><tr><th>Name</th><th>Unit</th></tr><tr><th>power</th><td>W <b>(watt)</b></td><span>stray</span></tr><tr><td></td><td>only</td></tr></tbody></table></main>';
  assert.deepEqual(contents(extractPage(html, {url: 'https://example.com/x'})), ['Fields', 'power · W (watt)', 'only']);
});

test('a sidebar category "A & B" is lvl0 "A & B" (not "A &amp; B", shown as such in the modal); markup stays escaped', () => {
  const page = (category: string): string =>
    `<!doctype html><html class="plugin-docs"><head><title>Setup | Site</title></head><body>` +
    `<aside><nav class=menu><a class="menu__link menu__link--sublist menu__link--active" href=/docs/a>${category}</a></nav></aside>` +
    `<main><article><h1>Setup</h1><p>Text.</p></article></main></body></html>`;
  const lvl0 = (category: string): string | undefined => extractPage(page(category), {url: 'https://example.com/docs/a'})[0]?.hierarchy.lvl0;
  assert.equal(lvl0('A &amp; B'), 'A & B');
  assert.equal(lvl0('Tips &amp; tricks &amp;'), 'Tips & tricks &');
  // An `&` that could start a character reference, and markup, stay escaped (HTML renders them as typed).
  assert.equal(lvl0('R&amp;D &amp;amp; &lt;b&gt;x&lt;/b&gt;'), 'R&amp;D &amp;amp; &lt;b&gt;x&lt;/b&gt;');
});
