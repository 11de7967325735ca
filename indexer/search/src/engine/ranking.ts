/**
 * The ranking table: every weight, boost, threshold and limit the engine's ranking reads, each
 * with one line on what it does (its doc comment). The engine reads these numbers from here
 * only. The README's "How a query is answered" holds this table as test/ranking-table.ts renders
 * it from this file, and every number its text gives as `name` (value) is this table's
 * (test/ranking.test.ts checks both). The lines are doc comments, not strings, so that the
 * browser bundle carries the numbers only.
 */
export const RANKING = {
  // What a word finds (matching.ts)
  /** a completion of the last word (being typed) counts this much of the word itself */
  completionWeight: 0.6,
  /** completions a prefix being typed expands to per letter typed: this × its letters (most frequent first) */
  completionsPerLetter: 10,
  /** another form of the word (same stem: `tokens`, `creating`) counts this much */
  stemWeight: 0.7,
  /** a word found through a synonym counts this much */
  synonymWeight: 0.8,
  /** a run of several words (`kwh meter`, a synonym's) counts this much, its words found anywhere in the section */
  runWeight: 0.5,
  /** a word found through a typo counts this much × len / (len + typos); the one word a single typo away from a word the index holds in no form counts as the word itself */
  typoMatchWeight: 0.35,
  /** letters a word needs for 1, for 2 typos to be forgiven (none in a number; Algolia's defaults, not the index's 3/7: see the README) */
  typoMinLength: [4, 8],
  /** a part or tail of an identifier (`power_w` in `active_power_w`) counts this much of a whole word */
  partWeight: 0.4,
  // Score (index-builder.ts, score.ts)
  /** BM25 weight of a word in a heading of level n (1: the page title, 2 … 6: lvl2 … lvl6): this / (n + 1); in lvl0 and prose: 1 */
  headingWeight: 12,
  /** BM25 weight of a word in a code sample (prose: 1) */
  codeWeight: 0.5,
  /** a paragraph with more symbols than this per character (`{}[]"=$;<>|`) is a code sample */
  codeSymbolShare: 0.04,
  /** BM25+ constants: term saturation k, length normalisation b, floor d (k and d are MiniSearch's defaults, not ours; b is ours, MiniSearch's is 0.7) */
  bm25: {k: 1.2, b: 0.5, d: 0.5},
  /** a section whose headings hold every word: score × this × (1 + level / levelScale) */
  allInHeadings: 2,
  /** divides the heading level (weight.level) in the boost above */
  levelScale: 200,
  /** page evidence: score × (1 + this × ln(sections of the page holding the words required)) */
  pageDensity: 0.25,
  /** page evidence: a section of a page outside the documentation (landing page, category pages) counts this much */
  sitePageWeight: 0.7,
  // Which tiers run (order.ts)
  /** the best sections whose records are read: are the words together in one record (else they rank lower, see enough)? */
  readBest: 100,
  /** fewer sections than this answer the words as typed: the engine looks further (typos forgiven; below the sections holding every word together, the lower tiers: spread, pages, all but one word) */
  enough: 5,
  /** fewer hits than this: sections holding some of the words follow (relaxation) */
  relaxBelow: 3,
  /** a query of this many words or more is a sentence: a section missing one of its words may answer (near misses, the subject rule) */
  sentenceWords: 3,
  /** the subject rule: a section whose headings hold this many of the query's words, one of them rare, ranks with the first tier */
  subjectHeadingWords: 2,
  /** a word in at most this many titles and headings of the whole site is rare (the subject rule) */
  rareHeadings: 4,
  // Query words (query.ts)
  /** words of a query read (the rest are ignored) */
  maxWords: 30,
  /** a last word of at most this many letters, being typed, matches titles and headings only */
  headingsOnlyPrefix: 1,
  /** the one word of a one-word query is defined first (as an identifier) from this many letters */
  definedWordMinLength: 3,
} as const;

export type Ranking = typeof RANKING;

/**
 * The ranking's rules, by name. Each can be switched off to measure what it buys
 * (`npm run search:eval -- --without NAME[,NAME]`; the README's ablation table); the engine
 * answers with every rule on unless switchOff is called, which only measuring does.
 */
export const RULE_NAMES = [
  'question-words',
  'stems',
  'headings-only-prefix',
  'typos-when-few',
  'all-in-headings',
  'page-evidence',
  'code-samples',
  'spread',
  'near-misses',
  'subject',
  'relaxation',
  'defined-first',
  'exact-heading',
] as const;

export type RuleName = (typeof RULE_NAMES)[number];

const switchedOff = new Set<string>();

/** Whether a rule is on (every rule is, unless switched off for a measurement). */
export function ruleOn(name: RuleName): boolean {
  return switchedOff.size === 0 || !switchedOff.has(name);
}

/** Switches these rules off (and every other on) for engines built and queries asked from now on; throws on an unknown name. */
export function switchOff(names: readonly string[]): void {
  const unknown = names.filter((n) => !(RULE_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new Error(`unknown ranking rule ${unknown.join(', ')} (rules: ${RULE_NAMES.join(', ')})`);
  switchedOff.clear();
  for (const n of names) switchedOff.add(n);
}
