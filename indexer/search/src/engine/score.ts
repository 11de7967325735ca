/**
 * Matching and scoring, functions over one query: which sections its words find, and each
 * section's score (the multipliers of RANKING, see the README's "How a query is answered").
 */
import {FIELD_COUNT, isHeadingField} from './fields.ts';
import type {Query} from './query.ts';
import {RANKING, ruleOn} from './ranking.ts';
import type {LocalSearchEngine} from './search.ts';
import {popcount} from './words.ts';

/**
 * Per-query arrays, one slot per section (per page: perPage). A query borrows them from its
 * engine and gives them back cleared (see LocalSearchEngine.borrow): allocating them for every
 * keystroke of a large site would cost more than the query.
 */
export class Scratch {
  // (declared, not defined, fields: the constructor assigns them, and a bundler targeting browsers
  // without class fields would otherwise define each twice)
  declare readonly acc: Float64Array;
  /** Bit k: the section holds query word k (as typed, in another form, through a typo or a synonym). */
  declare readonly matched: Uint32Array;
  /** Bit k: word k is in the section's title or a heading. */
  declare readonly inHeading: Uint32Array;
  /** The sections touched, in the order first touched. */
  declare readonly touched: Int32Array;
  declare readonly perPage: Uint16Array;

  constructor(sections: number, pages: number) {
    this.acc = new Float64Array(sections);
    this.matched = new Uint32Array(sections);
    this.inHeading = new Uint32Array(sections);
    this.touched = new Int32Array(sections);
    this.perPage = new Uint16Array(pages);
  }

  /** Zeroes the slots of the first `count` sections touched. */
  clear(count: number): void {
    for (let j = 0; j < count; j++) {
      const s = this.touched[j]!;
      this.acc[s] = 0;
      this.matched[s] = 0;
      this.inHeading[s] = 0;
    }
  }
}

/** What one pass over the index found for a query (with typos forgiven or not). */
export interface Matches {
  /** The words matched, word k being bit k of the scratch's masks. */
  terms: string[];
  readonly scratch: Scratch;
  /** How many sections were touched (scratch.touched[0..count)). */
  readonly count: number;
  /** Per query word, the index words it found through a typo or a synonym. */
  readonly typoTerms: Map<string, Set<string>>;
}

/** Adds every query word's postings (what it finds: see matching.ts) into `scratch`. */
export function accumulate(engine: LocalSearchEngine, q: Query, fuzzy: boolean, scratch: Scratch): Matches {
  const {terms, prefixLast, finds, pass} = q;
  const {acc, matched, inHeading, touched: list} = scratch;
  const typoTerms = new Map<string, Set<string>>();
  let touched = 0;
  const last = terms.length - 1;
  for (let t = 0; t < terms.length; t++) {
    const bit = 1 << t;
    const prefix = prefixLast && t === last && !terms[t]!.includes(' ');
    // One typed letter is too little to read paragraphs (or the lvl0 every page of a
    // category shares) for: it matches page titles and headings.
    const headingsOnly = ruleOn('headings-only-prefix') && prefix && terms[t]!.length <= RANKING.headingsOnlyPrefix;
    // (a run of words a synonym names, `kwh meter`, finds its words as typed too: the sections
    // holding each of them, as without the synonym and as Algolia, at runWeight as a synonym's run)
    const own = terms[t]!.includes(' ') ? engine.synonymExpansions(terms[t]!.split(' ')) : engine.expansions(terms[t]!, prefix, fuzzy);
    const alternatives = finds?.get(terms[t]!) ?? [];
    if (alternatives.length > 0) {
      // The words a synonym finds count as the query word where they stand (see wordTests).
      const set = typoTerms.get(terms[t]!) ?? new Set<string>();
      for (const words of alternatives) for (const w of words) set.add(w);
      typoTerms.set(terms[t]!, set);
    }
    for (const e of alternatives.length > 0 ? [...own, ...alternatives.flatMap((words) => engine.synonymExpansions(words))] : own) {
      if (e.term !== undefined && e.exact) {
        // (a synonym: its words are in typoTerms already)
      } else if (e.term !== undefined) {
        const set = typoTerms.get(terms[t]!) ?? new Set<string>();
        typoTerms.set(terms[t]!, set.add(e.term));
      }
      const {at, weight, headingEnd} = engine.posting(e.id);
      // (a partial list holds only the headings: its `at` ends there)
      const end = headingsOnly ? Math.min(headingEnd, at.length) : at.length;
      for (let j = 0; j < end; j++) {
        const key = at[j]!;
        const s = (key / FIELD_COUNT) | 0;
        const field = key - s * FIELD_COUNT;
        if (pass && pass[s] === 0) continue;
        if (matched[s] === 0) list[touched++] = s;
        acc[s]! += e.weight * weight[j]!;
        matched[s]! |= bit;
        if (isHeadingField(field)) inHeading[s]! |= bit;
      }
    }
  }
  return {terms, scratch, count: touched, typoTerms};
}

/**
 * Drops the query's words that no section holds (as typed, in another form, through a typo or a
 * synonym), renumbering the bits in the scratch arrays: a word the index does not hold at all
 * (`homey`, the name of another product) can never be held by a section, so it is not required
 * (Algolia's removeWordsIfNoResults comes to the same). All words are kept when none is held.
 */
export function withoutUnfound(m: Matches): void {
  const {terms, count, scratch} = m;
  let seen = 0;
  for (let j = 0; j < count; j++) seen |= scratch.matched[scratch.touched[j]!]!;
  const all = (1 << terms.length) - 1;
  if (seen === all || seen === 0) return;
  const map: number[] = [];
  const kept: string[] = [];
  terms.forEach((t, k) => {
    if (seen & (1 << k)) {
      map[k] = kept.length;
      kept.push(t);
    }
  });
  const remap = (mask: number) => {
    let out = 0;
    for (let k = 0; k < terms.length; k++) if (mask & (1 << k)) out |= 1 << map[k]!;
    return out;
  };
  for (let j = 0; j < count; j++) {
    const s = scratch.touched[j]!;
    scratch.matched[s] = remap(scratch.matched[s]!);
    scratch.inHeading[s] = remap(scratch.inHeading[s]!);
  }
  m.terms = kept;
}

/** Per page of the touched sections: the query's words (bits) its sections hold together. */
export function pageWords(engine: LocalSearchEngine, m: Matches): Map<number, number> {
  const words = new Map<number, number>();
  for (let j = 0; j < m.count; j++) {
    const s = m.scratch.touched[j]!;
    const p = engine.pageOf[s]!;
    words.set(p, (words.get(p) ?? 0) | m.scratch.matched[s]!);
  }
  return words;
}

/**
 * A section's score: what its words found there (accumulate), times the multipliers of
 * RANKING, among them what its page says of the query (the rule `page-evidence`): the share of
 * the query's words the page's sections hold together (`orWords`, given when the query is
 * answered as an OR of its words: otherwise every section ranked holds them all and the share is
 * 1; each word alike, so the page that answers comes first, then its section, and a page that
 * says one of the words often does not), how many of the page's sections hold the words required
 * (scratch.perPage), and whether it is a documentation page at all.
 */
export function scorer(engine: LocalSearchEngine, m: Matches, orWords: Map<number, number> | null): (s: number) => number {
  const {acc, matched: matchedOf, inHeading, perPage} = m.scratch;
  const words = m.terms.length;
  const [headings, page] = (['all-in-headings', 'page-evidence'] as const).map(ruleOn);
  return (s) => {
    const matched = matchedOf[s]!;
    const p = engine.pageOf[s]!;
    let score = acc[s]! * popcount(matched);
    if (page && orWords) score *= popcount(orWords.get(p)!) / words;
    if (headings && (inHeading[s]! & matched) === matched) {
      // Every word is in a title or heading: the heading itself is the hit.
      score *= RANKING.allInHeadings * (1 + engine.leadLevel[s]! / RANKING.levelScale);
    }
    if (page) {
      score *= 1 + RANKING.pageDensity * Math.log(Math.max(1, perPage[p]!));
      if (engine.isSitePage(s)) score *= RANKING.sitePageWeight;
    }
    return score;
  };
}
