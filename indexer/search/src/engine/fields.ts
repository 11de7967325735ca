/**
 * What the engine indexes of a section, and how much each part counts: its fields (hierarchy
 * lvl0..lvl6, prose, code; whole words and the parts of identifiers), their boosts, the BM25
 * constants, the words left out, and one term's postings. Shared by indexing (index-builder.ts),
 * matching (matching.ts) and ranking (search.ts).
 */
import {RANKING} from './ranking.ts';

/**
 * Common English words are not indexed in body text (they still are in titles and headings):
 * they match almost every paragraph, cost the most to score and never decide a hit. With them
 * the endings of contractions, which the tokenizer splits at the apostrophe (`doesn't` is
 * `doesn` and `t`, `meter's` is `meter` and `s`), as in NLTK's English list: an ending is no word.
 */
export const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have if in into is it its of on or so such than that the their them then there these they this to was were which will with you your s t d ll re ve m'.split(' '),
);

/**
 * Words of a question that say nothing about the answer (`how do i get a token`): dropped from a
 * query of several words, as stop words are, unless nothing else is left.
 */
export const QUESTION_WORDS = new Set('how what which why when where who i me my we our should would could shall may might must does do did mean can need want doesnt doesn dont don didnt didn isnt isn cant cannot wont won'.split(' '));

/** Fields of a section: its hierarchy lvl0..lvl6, its prose (7) and its code samples (8). */
export const PROSE = 7;

export const CODE = 8;

export const WHOLE_FIELDS = 9;

/**
 * Field boosts: a heading of level n (1: the page title) RANKING.headingWeight / (n + 1), so the
 * title and the higher headings rank above the lower and above body text; lvl0 (the category
 * every page of it shares) and prose 1, code samples RANKING.codeWeight. Each text is indexed
 * twice: whole words in field f, and the parts and tails of identifiers in f + 9 (`brightness` in
 * `status_led_brightness_pct`), which count RANKING.partWeight of a whole word.
 */
const WHOLE_BOOST = [1, ...[1, 2, 3, 4, 5, 6].map((n) => RANKING.headingWeight / (n + 1)), 1, RANKING.codeWeight];
export const FIELD_BOOST = [...WHOLE_BOOST, ...WHOLE_BOOST.map((b) => b * RANKING.partWeight)];

export const FIELD_COUNT = FIELD_BOOST.length;

export const isHeadingField = (f: number) => f % WHOLE_FIELDS >= 1 && f % WHOLE_FIELDS <= 6;

export const isBodyField = (f: number) => f % WHOLE_FIELDS >= PROSE;

/** BM25+: k and d are MiniSearch's defaults; b 0.5 (not 0.75) penalises a long section less. */
export const BM25 = RANKING.bm25;

/**
 * Weights are multiples of 1/WEIGHT_SCALE (at least one): a sharded index stores them as integers,
 * and an engine holding the whole index rounds its own the same way, so both add up the same
 * numbers and rank alike.
 */
export const WEIGHT_SCALE = 256;
export const roundWeight = (w: number): number => Math.max(1, Math.round(w * WEIGHT_SCALE));

/** One term's postings: section × field, and the BM25 weight of the term there. */
export interface Postings {
  /** section * FIELD_COUNT + field */
  at: Int32Array;
  weight: Float32Array;
  /** Sections that contain the term (document frequency). */
  df: number;
  /** Postings before this index are in page titles and headings (lvl1..lvl6), the rest in lvl0 or body text. */
  headingEnd: number;
  /** Only the title and heading postings (a sharded index's heads file): replaced by the whole list once fetched. */
  partial?: boolean;
}
