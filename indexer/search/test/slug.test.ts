/**
 * The heading anchors the index file predicts (index-file.ts's headingSlug) are Docusaurus's: the
 * slug of github-slugger, the version Docusaurus depends on.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createRequire} from 'node:module';
import {headingSlug} from '../src/engine/index-file.ts';
import {SITE_RECORDS} from '../src/testing/search-records.ts';

// (github-slugger 1.x is CommonJS without types)
const {slug} = createRequire(import.meta.url)('github-slugger') as {slug: (text: string) => string};

test('headingSlug gives github-slugger’s anchor', () => {
  const headings = [
    ...SITE_RECORDS.flatMap((r) => Object.values(r.hierarchy).filter((h): h is string => h !== null)),
    'Switching off while the switch lock is on (id 8)',
    'telegram:no-telegram-received',
    'firmware_version: the firmware version',
    'GET /api/v1/data',
    'API v1: Energy Socket fields (2024-03-12)',
    'Überschuss & Einspeisung — “quoted” text',
    '  Leading and trailing spaces  ',
    'Emoji ⚡ and symbols © ™ ½',
    'TXT keys of _homewizard._tcp (v2)',
    'a  b   c',
  ];
  for (const h of headings) assert.equal(headingSlug(h), slug(h), h);
  // entities as the extractor writes them are decoded first
  assert.equal(headingSlug('Errors &amp; retries'), slug('Errors & retries'));
});
