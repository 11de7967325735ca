import {test} from 'node:test';
import assert from 'node:assert/strict';
import {searchRecordSchema} from '../src/records.ts';

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
