import {test} from 'node:test';
import assert from 'node:assert/strict';
import {searchRecordSchema} from 'docs-search/record';

const base = {
  objectID: 'a',
  url: 'https://example.com/docs/x#y',
  url_without_anchor: 'https://example.com/docs/x',
  anchor: 'y',
  hierarchy: {lvl0: 'Docs', lvl1: 'X', lvl2: 'Y', lvl3: null, lvl4: null, lvl5: null, lvl6: null},
  weight: {pageRank: 0, level: 80, position: 1},
  language: 'en',
  docusaurus_tag: 'docs-default-current',
};

test('a heading record without content is valid', () => {
  assert.equal(searchRecordSchema.safeParse({...base, type: 'lvl2', content: null}).success, true);
});

test('a content record must carry content', () => {
  assert.equal(searchRecordSchema.safeParse({...base, type: 'content', content: null}).success, false);
});

test('findInvalidRecord (shared section fields checked once) finds what the whole schema finds, with its message', async () => {
  const {findInvalidRecord, recordListSchema} = await import('docs-search/record');
  const {extractPage} = await import('../src/extract/extract.ts');
  const {readFile} = await import('node:fs/promises');
  const {fixture} = await import('./helpers.ts');
  const page = extractPage(await readFile(fixture('docusaurus-rich', 'page.html'), 'utf8'), {url: 'https://example.com/docs/rich'});
  const section = {...base, type: 'content' as const, content: 'text'};
  const heading = {...base, type: 'lvl2' as const, content: null};
  const defects: [string, (r: typeof section) => object][] = [
    ['empty objectID', (r) => ({...r, objectID: ''})],
    ['relative url', (r) => ({...r, url: '/docs/x#y'})],
    ['bad url_without_anchor', (r) => ({...r, url_without_anchor: 'nope'})],
    ['empty lvl0 in a new hierarchy', (r) => ({...r, hierarchy: {...r.hierarchy, lvl0: ''}})],
    ['content record without content', (r) => ({...r, content: null})],
    ['negative position', (r) => ({...r, weight: {...r.weight, position: -1}})],
    ['unknown type', (r) => ({...r, type: 'lvl9'})],
    ['empty language', (r) => ({...r, language: ''})],
    ['number version', (r) => ({...r, version: 3})],
  ];
  for (const [name, breakIt] of defects) {
    // The broken record sits after two valid records of the same section (same hierarchy object).
    const records = [...page, heading, section, breakIt(section)] as never[];
    const whole = recordListSchema.safeParse(records);
    assert.equal(whole.success, false, name);
    assert.deepEqual(
      findInvalidRecord(records),
      {index: records.length - 1, message: whole.error?.issues[0]?.message},
      name,
    );
  }
  assert.equal(findInvalidRecord([...page, heading, section] as never[]), undefined);
  assert.ok(page.length > 10, 'the fixture page gives records');
});

test('a heading record with content is refused with the rule\'s message', async () => {
  const {findInvalidRecord} = await import('docs-search/record');
  assert.deepEqual(findInvalidRecord([{...base, type: 'lvl2', content: 'x'}] as never[]), {index: 0, message: 'a lvl2 record has no content'});
});
