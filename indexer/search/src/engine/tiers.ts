/**
 * The tiers below the sections holding every word in one record, for a query few sections answer
 * whole (fewer than RANKING.enough): sections holding every word in different paragraphs and
 * pages whose sections together hold every word; sections holding all but one word; and query
 * relaxation. Functions over one query (see order.ts).
 */
import type {Compare, Scored} from './order.ts';
import {RANKING, ruleOn} from './ranking.ts';
import {pageWords, type Matches} from './score.ts';
import type {LocalSearchEngine} from './search.ts';
import type {Reading} from './shown-record.ts';
import {popcount} from './words.ts';

/** What the tiers read of a query's pass. */
export interface PassContext {
  readonly engine: LocalSearchEngine;
  readonly m: Matches;
  /** The mask of every word. */
  readonly all: number;
  readonly compare: Compare;
  readonly scoreOf: (section: number) => number;
  readonly reading: Reading;
}

/**
 * For a query with few sections holding every word: [the best section of each page whose
 * sections together hold every word (none of them alone), the sections holding all but one word
 * (RANKING.sentenceWords words or more)], each list unordered; empty when both are.
 */
export function nearMisses(engine: LocalSearchEngine, m: Matches, all: number): number[][] {
  if (!ruleOn('near-misses')) return [];
  const words = m.terms.length;
  const {matched, acc, touched} = m.scratch;
  const pageMask = pageWords(engine, m);
  const best = new Map<number, number>();
  const nearSections: number[] = [];
  for (let j = 0; j < m.count; j++) {
    const s = touched[j]!;
    const mask = matched[s]!;
    const p = engine.pageOf[s]!;
    if (mask === all) best.set(p, -1); // this page already has a section with every word
    else {
      const b = best.get(p);
      if (b !== -1 && (b === undefined || acc[s]! * popcount(mask) > acc[b]! * popcount(matched[b]!))) best.set(p, s);
      if (words >= RANKING.sentenceWords && popcount(mask) === words - 1) nearSections.push(s);
    }
  }
  const pages: number[] = [];
  for (const [p, s] of best) if (s >= 0 && pageMask.get(p) === all) pages.push(s);
  const inPages = new Set(pages);
  const rest = nearSections.filter((s) => !inPages.has(s));
  return pages.length + rest.length > 0 ? [pages, rest] : [];
}

/** The first tier's sections and what was learnt reading them (see order.ts). */
export interface FirstTier {
  /** Checked: every word in one record. */
  readonly whole: Scored[];
  /** Checked: every word, in different records. */
  readonly spread: Set<Scored>;
  /** Not checked (below the best read). */
  readonly unchecked: Scored[];
  readonly near: number[][] | null;
  /** Per section: how many words its best record holds (filled as read). */
  readonly together: Map<number, number>;
  /** The sections only counted, not ranked. */
  readonly others: Int32Array;
}

/** Few sections hold every word in one record: they, then each lower tier, each below the one before. */
export function belowFew(ctx: PassContext, first: FirstTier): {ranked: Scored[]; relaxed: number} {
  const {engine, m, compare, scoreOf, reading} = ctx;
  const {matched, inHeading} = m.scratch;
  const terms = m.terms;
  const {whole, spread, unchecked, together} = first;
  const [pages = [], rest = []] = first.near ?? nearMisses(engine, m, ctx.all);
  const wordsOf = (section: number) => {
    let w = together.get(section);
    if (w === undefined) together.set(section, (w = engine.bestRecord(section, reading).words));
    return w;
  };
  // Most words together in one record first (as Algolia's proximity criterion), then score.
  const byProximity = (a: Scored, b: Scored) => wordsOf(b.section) - wordsOf(a.section) || compare(a, b);
  // A section whose title or headings name the query's subject (subjectHeadingWords of its words
  // or more, the section missing one word at most) ranks with the sections holding every word,
  // by score, when those hold the words only by chance, none of them in their titles or
  // headings: "reporting API is disabled" finds the heading API_DISABLED above paragraphs that
  // only happen to hold "reporting" too. A section holding every word under a title naming one
  // of them is on the subject: "plug in battery support" finds the Batteries page, which says how
  // to support the Plug-In Battery, before the battery's field table (headed "Plug-In Battery
  // fields", without "support").
  const inHeadings = (section: number) => popcount(inHeading[section]! & matched[section]!);
  const holdingAll = [...whole, ...spread];
  const namedByFull = holdingAll.some((r) => inHeadings(r.section) > 0);
  const topScore = holdingAll.reduce((max, r) => Math.max(max, r.score), 0);
  // (one of its heading words a word few headings hold: not the words of every page's title, "local API")
  const rare = rareInHeadings(engine, terms);
  const namesSubject = (section: number) =>
    inHeadings(section) >= RANKING.subjectHeadingWords && (inHeading[section]! & matched[section]! & rare) !== 0 && popcount(matched[section]!) >= terms.length - 1;
  const candidates = [...spread, ...pages.map((section) => ({section, score: scoreOf(section)})), ...rest.map((section) => ({section, score: scoreOf(section)}))];
  // (and scores above every section holding all the words: the words it lacks were the incidental ones)
  const subject = ruleOn('subject') && terms.length >= RANKING.sentenceWords && !namedByFull ? candidates.filter((r) => r.score > topScore && namesSubject(r.section)) : [];
  const promoted = new Set(subject.map((r) => r.section));
  const tier1 = [...spread, ...pages.map((section) => ({section, score: scoreOf(section)}))].filter((r) => !promoted.has(r.section)).sort(byProximity);
  const tier2 = rest.filter((section) => !promoted.has(section)).map((section) => ({section, score: scoreOf(section)})).sort(compare);
  const ranked = [...[...whole, ...subject].sort(compare), ...unchecked, ...tier1, ...tier2];
  // Then (relaxation, whose first step dropped the words no section holds: order.ts) every other
  // section holding some of the words, those holding most of them first, a word weighing more
  // the fewer sections hold it (see relaxedTier).
  if (!ruleOn('relaxation') || ranked.length + first.others.length >= RANKING.relaxBelow) return {ranked, relaxed: 0};
  const tier3 = relaxedTier(ctx, [ranked, tier1, tier2], first.others);
  return {ranked: [...ranked, ...tier3], relaxed: tier3.length};
}

/**
 * Query relaxation: the touched sections not listed yet (not in `listed`, not in `others`),
 * holding some of the query's words but not all of them together, those holding the most first,
 * a word weighing its inverse document frequency among the sections (a rare word the answer
 * needs counts more than `api` or `device`), then by score. They follow the sections holding
 * every word, so a question whose words are not all in one section still finds the sections that
 * answer part of it.
 */
function relaxedTier(ctx: PassContext, listed: Scored[][], others: Int32Array): Scored[] {
  const {engine, m, compare, scoreOf} = ctx;
  const words = m.terms.length;
  const {matched, touched} = m.scratch;
  const seen = new Set<number>(others);
  for (const list of listed) for (const r of list) seen.add(r.section);
  const df = new Array<number>(words).fill(0);
  for (let j = 0; j < m.count; j++) {
    const mask = matched[touched[j]!]!;
    for (let k = 0; k < words; k++) if (mask & (1 << k)) df[k]!++;
  }
  const sections = Math.max(1, engine.sectionCount);
  const idf = df.map((d) => Math.log(1 + sections / Math.max(1, d)));
  const total = idf.reduce((a, b) => a + b, 0) || 1;
  const coverage = (s: number) => {
    let c = 0;
    for (let k = 0; k < words; k++) if (matched[s]! & (1 << k)) c += idf[k]!;
    return c / total;
  };
  const out: (Scored & {coverage: number})[] = [];
  for (let j = 0; j < m.count; j++) {
    const s = touched[j]!;
    if (!seen.has(s)) out.push({section: s, score: scoreOf(s), coverage: coverage(s)});
  }
  return out.sort((a, b) => b.coverage - a.coverage || compare(a, b));
}

/**
 * The query words (bits) that few headings hold: at most RANKING.rareHeadings titles and headings
 * hold the word (`disabled`, `button`; not `api`, `local` or `v2`). A count, not a share of the
 * site's sections: pages on other subjects, added to the site, do not make a word rare.
 */
function rareInHeadings(engine: LocalSearchEngine, terms: readonly string[]): number {
  let bits = 0;
  terms.forEach((t, k) => {
    const id = engine.terms.get(t);
    if (id !== undefined && engine.posting(id).headingEnd > 0 && engine.posting(id).headingEnd <= RANKING.rareHeadings) bits |= 1 << k;
  });
  return bits;
}
