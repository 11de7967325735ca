/**
 * What the engine keeps from one query to the next while a reader types (expansions of a query
 * word, stems, text counts, the highlight matcher's shortcut): an answer made with them warm is
 * the answer a fresh engine makes, and each cached function answers as its uncached form.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {answerQuery, modalParams} from '../src/engine/answer.ts';
import {createMatcher, fitsSnippet, fitsSnippetUncached} from '../src/engine/highlight.ts';
import {LocalSearchEngine, standsAlone} from '../src/engine/search.ts';
import {matchLength, stem, stemUncached, tokenizeForIndex, tokenizeQuery, type TypoTerms} from '../src/engine/text.ts';
import {recordsWithLongParagraph, SITE_RECORDS} from '../src/testing/search-records.ts';

/** Words as typed (typos, word forms, identifiers, questions), and every prefix of each. */
const QUERIES = ['active power', 'actve powr', 'batery', 'swtich lock', 'tokens', 'creating a user', 'status_led_brightness', 'mdsn', 'how do i get a token', 'x-api-version ', 'meter reports gas'];
const TYPED = QUERIES.flatMap((q) => Array.from({length: q.length}, (_, i) => q.slice(0, i + 1)));

const answer = (engine: LocalSearchEngine, q: string, params = modalParams(q)) => answerQuery(engine, 'docs', params, {now: () => 0});

test('an engine that answered every typed prefix before answers each as a fresh engine does', () => {
  const records = recordsWithLongParagraph();
  const warm = new LocalSearchEngine(records);
  // once in order (as a reader types), then again backwards: every cache is warm by then
  for (const q of TYPED) answer(warm, q);
  for (const q of [...TYPED].reverse()) {
    assert.deepEqual(answer(warm, q), answer(new LocalSearchEngine(records), q), q);
    const page = {query: q, hitsPerPage: 3, page: 1, attributesToSnippet: ['content:4'], facets: ['*']};
    assert.deepEqual(answer(warm, q, page), answer(new LocalSearchEngine(records), q, page), `${q} (page 2)`);
  }
});

test('stem answers as it does uncached, the first time and the next', () => {
  const words = new Set(SITE_RECORDS.flatMap((r) => tokenizeForIndex(`${Object.values(r.hierarchy).join(' ')} ${r.content ?? ''}`)));
  for (const w of ['batteries', 'battery', 'creating', 'created', 'polling', 'running', 'classes', 'boxes', 'status', 'tokens', 'free', 'a', 'api_version', 'V2']) words.add(w);
  for (const pass of [1, 2]) {
    for (const w of words) assert.equal(stem(w), stemUncached(w), `${w} (pass ${pass})`);
  }
  assert.equal(stem('batteries'), 'batteri');
  assert.equal(stem('batteries', 's'), stemUncached('batteries', 's'));
});

test('fitsSnippet answers as it does uncached, the first time and the next', () => {
  const texts = [...recordsWithLongParagraph().flatMap((r) => [r.content, ...Object.values(r.hierarchy)]), '', ' ', 'one', ' one', 'one ', 'one two', 'one  two\tthree', 'a\u00a0b c'];
  for (const pass of [1, 2]) {
    for (const text of texts) {
      if (text === null) continue;
      for (let words = 0; words <= 12; words++) assert.equal(fitsSnippet(text, words), fitsSnippetUncached(text, words), `${JSON.stringify(text)} ${words} (pass ${pass})`);
    }
  }
});

test('the highlight matcher turns down by first letter only what matchLength would', () => {
  const pieces = [...new Set(recordsWithLongParagraph().flatMap((r) => tokenizeForIndex(`${Object.values(r.hierarchy).join(' ')} ${r.content ?? ''}`)))];
  const typoCases: [string, TypoTerms][] = [
    ['active power', new Map()],
    ['actve powr', new Map([['actve', new Set(['active'])], ['powr', new Set(['power', 'powered'])]])],
    ['swtich lock', new Map([['swtich', new Set(['switch', 'switch_lock'])]])],
    ['tokens bearer', new Map()],
    ['mdsn', new Map([['mdsn', new Set(['mdns'])]])],
    // typos in the first letter: the typo word starts otherwise
    ['dmns ower', new Map([['dmns', new Set(['mdns'])], ['ower', new Set(['power', 'lower'])]])],
    ['total_gas_m3 meter', new Map()],
  ];
  for (const [query, typoTerms] of typoCases) {
    const terms = tokenizeQuery(query);
    for (const prefixLast of [true, false]) {
      const matcher = createMatcher(terms, prefixLast, typoTerms);
      for (const piece of pieces) {
        const expected = terms
          .map((t, k) => ({term: k, len: matchLength(t, piece, prefixLast && k === terms.length - 1, typoTerms)}))
          .filter((m) => m.len > 0);
        assert.deepEqual(matcher(piece), expected, `${query} / ${piece}`);
      }
    }
  }
});

test('standsAlone finds what the regular expression with Unicode lookarounds finds', () => {
  const texts = [
    ...recordsWithLongParagraph().flatMap((r) => [r.content ?? '', ...Object.values(r.hierarchy).map((v) => v ?? '')]).map((t) => t.toLowerCase()),
    'mdns', 'xmdns', 'mdnsx', 'mdns_x', '_mdns', 'é-mdns', 'émdns', 'mdnsé', 'mdns2', '2mdns', '\u{20000}mdns', 'mdns\u{20000}', '\u{1F600}mdns\u{1F600}', '\u00e9mdns mdns', 'a mdnsmdns b', '',
  ];
  const words = ['mdns', 'power', 'active_power_w', 'api', 'x-api-version', 'a', 'the', 'é', '1'];
  for (const text of texts) {
    for (const word of words) {
      const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})(?![\\p{L}\\p{N}])`, 'u');
      assert.equal(standsAlone(text, word), re.test(text), `${JSON.stringify(word)} in ${JSON.stringify(text)}`);
    }
  }
});
