/**
 * Ordering, functions over one query: one pass over the index (rankPass: match, score, then put
 * the sections in order, tier by tier) and the comparator the tiers are sorted by (definitions
 * first, then a heading that is the query, then the score, then the ties).
 */
import {isIdentifier, type Query} from './query.ts';
import {RANKING, ruleOn} from './ranking.ts';
import {accumulate, pageWords, scorer, withoutUnfound, type Matches} from './score.ts';
import type {LocalSearchEngine} from './search.ts';
import type {Reading} from './shown-record.ts';
import {typosAllowed} from './text.ts';
import {belowFew, nearMisses} from './tiers.ts';

export interface Scored {
  section: number;
  score: number;
}

export type Compare = (a: Scored, b: Scored) => number;

/** A pass's sections in order: `ranked` first (in order), then `others` (unordered, below them). */
export interface Ranking {
  /** Some section holds every word (or, with near misses, every word is required). */
  all: boolean;
  ranked: Scored[];
  others: Int32Array;
  typoTerms: Map<string, Set<string>>;
  /** How many of `ranked` (its last) were added by relaxation, holding some words only. */
  relaxed: number;
}

/**
 * The order of sections for a query. `identifiers`: the words a section may define (its heading
 * or a table row names them: it then ranks above the sections that quote them, whatever their
 * scores); `exactTerms`: the words a section's own heading may be, word for word (it then ranks
 * above the sections that only hold them: Algolia's exact criterion); null: no such rule.
 */
export function comparer(engine: LocalSearchEngine, identifiers: readonly string[], pathWords: ReadonlySet<string>, exactTerms: readonly string[] | null): Compare {
  const defined = new Map<number, number>();
  const definitions = (section: number) => {
    let n = defined.get(section);
    if (n === undefined) {
      n = 0;
      for (const id of identifiers) if (engine.defines(section, id, pathWords.has(id))) n++;
      defined.set(section, n);
    }
    return n;
  };
  const exactMemo = new Map<number, number>();
  // 2: the section's own heading is the query, its words in order; 1: in another order; 0: not (see headingIs).
  const isExact = (section: number) => {
    let e = exactMemo.get(section);
    if (e === undefined) exactMemo.set(section, (e = engine.headingIs(section, exactTerms!)));
    return e;
  };
  return (a, b) => {
    if (identifiers.length > 0) {
      const d = definitions(b.section) - definitions(a.section);
      if (d !== 0) return d;
    }
    if (exactTerms !== null) {
      const e = isExact(b.section) - isExact(a.section);
      if (e !== 0) return e;
    }
    if (b.score !== a.score) return b.score - a.score;
    const x = a.section;
    const y = b.section;
    // Sections are numbered in record order, as their lead records are.
    return engine.pageRank[y]! - engine.pageRank[x]! || engine.leadLevel[y]! - engine.leadLevel[x]! || engine.leadPosition[x]! - engine.leadPosition[y]! || x - y;
  };
}

/** One pass over the index for a query, typos forgiven or not: the sections that match every word (or, if none does, any word), best first. */
export function rankPass(engine: LocalSearchEngine, q: Query, fuzzy: boolean): Ranking {
  const scratch = engine.borrow();
  const m = accumulate(engine, q, fuzzy, scratch);
  try {
    // Relaxation's first step: a word no section holds is dropped (a word not found as typed may
    // be a typo: dropped only once typos are forgiven, or when none may be).
    if (ruleOn('relaxation') && (fuzzy || !q.terms.some((t) => typosAllowed(t) > 0))) withoutUnfound(m);
    return order(engine, q, m, fuzzy);
  } finally {
    engine.giveBack(scratch, m.count);
  }
}

function order(engine: LocalSearchEngine, q: Query, m: Matches, fuzzy: boolean): Ranking {
  const {terms, typoTerms, count: touched} = m;
  const {matched, perPage} = m.scratch;
  const {prefixLast, need} = q;
  // The words a section may define: identifiers, words typed as paths, and the one word of a
  // one-word query the index holds (a field named `cycles` or `type` is defined by its table
  // row, as `power_w` is).
  const identifiers = !ruleOn('defined-first')
    ? []
    : terms.filter((t) => isIdentifier(t) || q.pathWords.has(t) || (terms.length === 1 && !t.includes(' ') && t.length >= RANKING.definedWordMinLength && engine.terms.has(t)));
  // (the words as typed, a synonym's run of words split back into them: not for typos;
  // "Example response: P1 Meter" is the heading of `example response p1 meter`, where `p1 meter` is one run)
  const compare = comparer(engine, identifiers, q.pathWords, !fuzzy && ruleOn('exact-heading') ? terms.flatMap((t) => t.split(' ')) : null);
  const reading: Reading = {terms, prefixLast, typoTerms, typeOk: q.typeOk};
  const all = (1 << terms.length) - 1;
  let full = 0;
  for (let j = 0; j < touched; j++) if (matched[m.scratch.touched[j]!] === all) full++;
  // No section holds every word: pages whose sections together do, and sections holding all
  // but one word, answer (see below) before any word alone may.
  const near = full === 0 && terms.length >= 2 ? nearMisses(engine, m, all) : null;
  const any = full > 0;
  const required = any || (near !== null && near.length > 0) ? all : 0; // else OR: any word may match
  const sections = new Int32Array(touched);
  let n = 0;
  for (let j = 0; j < touched; j++) {
    const s = m.scratch.touched[j]!;
    if (required === 0 || matched[s] === required) {
      sections[n++] = s;
      perPage[engine.pageOf[s]!]! += 1;
    }
  }
  // Answered as an OR of its words (no section holds every word, no page does, no section holds all but one).
  const scoreOf = scorer(engine, m, required === 0 && terms.length > 1 && ruleOn('page-evidence') ? pageWords(engine, m) : null);
  const scores = new Float64Array(n);
  for (let j = 0; j < n; j++) scores[j] = scoreOf(sections[j]!);
  for (let j = 0; j < n; j++) perPage[engine.pageOf[sections[j]!]!] = 0;
  // Only the best are put in order (and read, below); the rest are only counted.
  const read = Math.max(RANKING.readBest, Number.isFinite(need) ? need : 0);
  const wanted = Number.isFinite(need) ? read : n;
  const threshold = n > 2 * wanted ? kthLargest(scores, wanted) : -Infinity;
  let ranked: Scored[] = [];
  let relaxed = 0;
  const others = new Int32Array(n);
  const otherScores = new Float64Array(n);
  let o = 0;
  for (let j = 0; j < n; j++) {
    if (scores[j]! >= threshold) ranked.push({section: sections[j]!, score: scores[j]!});
    else {
      otherScores[o] = scores[j]!;
      others[o++] = sections[j]!;
    }
  }
  ranked.sort(compare);
  if (terms.length > 1) {
    // Only the best candidates are read: are the words together in one record (a heading, or
    // a paragraph under its headings)?
    const spread = new Set<Scored>();
    // How many words the best record of a section holds (one record: a heading with its
    // paragraph), for the sections not holding every word together.
    const together = new Map<number, number>();
    for (const r of ranked.slice(0, read)) {
      if (matched[r.section] !== all) continue;
      const {words} = engine.bestRecord(r.section, reading);
      if (words < terms.length && ruleOn('spread')) {
        spread.add(r);
        together.set(r.section, words);
      }
    }
    const whole = ranked.slice(0, read).filter((r) => !spread.has(r));
    const unchecked = ranked.slice(read);
    if (whole.length + unchecked.length + o < RANKING.enough) {
      // Few sections hold every word in one record: the lower tiers follow (tiers.ts).
      const lower = belowFew({engine, m, all, compare, scoreOf, reading}, {whole, spread, unchecked, near, together, others: others.subarray(0, o)});
      ranked = lower.ranked;
      relaxed = lower.relaxed;
    } else if (whole.length > 0) {
      // Like per-paragraph records: a section whose words are only in different paragraphs
      // is no hit while many others hold them together.
      ranked = ranked.filter((r) => !spread.has(r));
      if (ranked.length < need && o > 0) {
        // Spread sections left too few: the next best join, in order.
        const more = Array.from(others.subarray(0, o), (section, j) => ({section, score: otherScores[j]!}));
        ranked.push(...more.sort(compare));
        o = 0;
      }
    }
  }
  return {all: any, ranked, others: others.subarray(0, o), typoTerms, relaxed};
}

/** The k-th largest value (quickselect on a copy). */
function kthLargest(values: Float64Array, k: number): number {
  const a = Float64Array.from(values);
  let lo = 0;
  let hi = a.length - 1;
  const target = k - 1; // index in descending order
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! > pivot) i++;
      while (a[j]! < pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return a[target]!;
}
