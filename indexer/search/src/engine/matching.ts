/**
 * Matching: a query word → the index's terms it finds, each with a weight: the word itself, its
 * other forms (same stem), completions of a word being typed, words one or two typos away, and
 * the words its synonyms name. The engine (search.ts) adds up the postings of what is found.
 */
import type SearchableMap from 'minisearch/SearchableMap';
import {remembered, stem, tokenizeQuery, transpositions, typosAllowed} from './text.ts';
import {SynonymTable, type Synonym} from './synonyms.ts';
import {FIELD_COUNT, isHeadingField, STOP_WORDS, type Postings} from './fields.ts';
import {RANKING, ruleOn} from './ranking.ts';

// The weights of what a word finds are RANKING's (ranking.ts): completionWeight, stemWeight,
// synonymWeight, runWeight (a run of several words, `kwh meter` as typed or a synonym's `din
// rail meter`, in a section holding each of its words anywhere), typoMatchWeight.
const {completionWeight: PREFIX_WEIGHT, typoMatchWeight: FUZZY_WEIGHT, stemWeight: STEM_WEIGHT, synonymWeight: SYNONYM_WEIGHT, runWeight: RUN_WEIGHT} = RANKING;

/**
 * How many completions a prefix being typed expands to (Algolia also bounds prefix matches): more
 * the more letters are typed, as a longer prefix says more of the word.
 */
function completionLimit(prefix: string): number {
  return RANKING.completionsPerLetter * Math.max(prefix.length, 1);
}

/** A word of the index and its term id. */
interface IndexWord {
  word: string;
  id: number;
}

export interface Expansion {
  id: number;
  /** The index word (for typo matches only). */
  term?: string;
  weight: number;
  /** Matched without a typo (the word itself, or a completion of the word being typed). */
  exact: boolean;
}

/**
 * The index's terms and their postings, and what a query word finds among them. The engine's
 * first layer: RecordChooser (shown-record.ts) and LocalSearchEngine (search.ts) extend it.
 */
export abstract class TermMatcher {
  /** MiniSearch's radix tree: term → term id. */
  abstract readonly terms: SearchableMap<number>;
  /** Per term id, its postings (an engine built from records: once weighed, see posting). */
  readonly postings: Postings[] = [];
  /** Weighs a term's postings when first read (an engine built from records); null: all are in `postings`. */
  protected weigh: ((term: number) => Postings) | null = null;
  protected readonly completionCache = new Map<string, IndexWord[]>();
  /** See expansions. */
  protected readonly expansionCache = new Map<string, readonly Expansion[]>();
  /** The synonyms the index carries (see useSynonyms); null: none. */
  private synonyms: SynonymTable | null = null;
  /** What a synonym's words find, per synonym (see synonymExpansions). */
  protected readonly synonymCache = new Map<string, readonly Expansion[]>();
  /** Stem → the plain words with that stem and their ids, per stem asked for (see sameStem). */
  protected readonly stems = new Map<string, IndexWord[]>();

  /** A term's postings (weighed when first read). */
  posting(id: number): Postings {
    return this.postings[id] ?? (this.postings[id] = this.weigh!(id));
  }

  /**
   * Answers with these synonyms from now on (the list the index file carries, see
   * synonyms.ts): a query word, or a run of words, that a synonym names also finds the
   * synonym's other words, as Algolia does with the same list.
   */
  useSynonyms(list: readonly Synonym[] | undefined): this {
    this.synonyms = list && list.length > 0 ? new SynonymTable(list, synonymWords) : null;
    this.synonymCache.clear();
    return this;
  }

  /** The query's words grouped by the synonyms (a run a synonym names becomes one term) and what each finds. */
  withSynonyms(terms: string[]): {terms: string[]; finds: Map<string, string[][]> | null} {
    if (!this.synonyms) return {terms, finds: null};
    const groups = this.synonyms.group(terms);
    if (!groups.some((g) => g.finds.length > 0)) return {terms, finds: null};
    const finds = new Map<string, string[][]>();
    const grouped = groups.map((g) => {
      const term = g.words.join(' ');
      if (g.finds.length > 0) finds.set(term, g.finds);
      return term;
    });
    return {terms: grouped, finds};
  }

  /**
   * The postings a synonym's words find, as expansions of the query word: one word, its own
   * expansions (the word and its other forms); several words, the sections holding all of them
   * (their postings there), as one list kept for the rest of the engine's life.
   */
  synonymExpansions(words: string[]): readonly Expansion[] {
    const key = words.join(' ');
    return remembered(this.synonymCache, 500, key, () => {
      if (words.length === 1) {
        return this.expansions(words[0]!, false, false).map((e) => ({id: e.id, term: words[0]!, weight: e.weight * SYNONYM_WEIGHT, exact: true}));
      }
      // (section → its postings of every word, while every word so far is in it)
      let inAll: Map<number, [number, number][]> | null = null;
      for (const word of words) {
        const here = new Map<number, [number, number][]>();
        for (const e of this.expansions(word, false, false)) {
          const {at, weight} = this.posting(e.id);
          for (let j = 0; j < at.length; j++) {
            const s = (at[j]! / FIELD_COUNT) | 0;
            if (inAll && !inAll.has(s)) continue;
            let list = here.get(s);
            if (!list) here.set(s, (list = [...(inAll?.get(s) ?? [])]));
            list.push([at[j]!, (e.weight * weight[j]!) / words.length]);
          }
        }
        inAll = here;
      }
      const entries = [...(inAll ?? new Map<number, [number, number][]>()).values()].flat();
      if (entries.length === 0) return [];
      // Heading postings first, as in every list (see Postings.headingEnd).
      entries.sort((a, b) => Number(isHeadingField(b[0] % FIELD_COUNT)) - Number(isHeadingField(a[0] % FIELD_COUNT)));
      const headingEnd = entries.filter(([k]) => isHeadingField(k % FIELD_COUNT)).length;
      const id = this.postings.length;
      this.postings.push({at: Int32Array.from(entries, ([k]) => k), weight: Float32Array.from(entries, ([, w]) => w), df: new Set(entries.map(([k]) => (k / FIELD_COUNT) | 0)).size, headingEnd});
      return [{id, term: words[0]!, weight: RUN_WEIGHT, exact: true}];
    });
  }

  /** Whether the index holds `word` (or, as `prefix`, a word starting with it). */
  knows(word: string, prefix: boolean): boolean {
    if (this.terms.has(word)) return true;
    if (!prefix) return false;
    for (const _ of this.terms.atPrefix(word).keys()) return true;
    return false;
  }

  /** The most frequent completions of a prefix, without the prefix itself (then the shortest, then in the words' order). */
  private completions(prefix: string): IndexWord[] {
    return remembered(this.completionCache, 501, prefix, () => {
      const found: {word: string; id: number; df: number}[] = [];
      for (const [word, id] of this.terms.atPrefix(prefix)) {
        if (word !== prefix) found.push({word, id, df: this.posting(id).df});
      }
      found.sort((a, b) => b.df - a.df || a.word.length - b.word.length || (a.word < b.word ? -1 : 1));
      return found.slice(0, completionLimit(prefix));
    });
  }

  /**
   * The other plain words of the index with the same stem as `term` (and their ids). Every word
   * whose stem is K starts with K, or with K less its last letter when that is an `i` standing
   * for a `y` (`batteri` for `battery`; see stem), so only the words under that prefix are
   * stemmed: stemming the whole vocabulary on the first query cost the first answer about as
   * much as building the index's radix tree (measured, 23 pages).
   */
  private sameStem(term: string): IndexWord[] {
    if (!ruleOn('stems')) return [];
    const key = stem(term);
    if (key === term && !/^[a-z]{4,}$/.test(term)) return [];
    return remembered(this.stems, 501, key, () => {
      const forms: IndexWord[] = [];
      const prefix = key.endsWith('i') ? key.slice(0, -1) : key;
      // (a form of three letters too: `adding` finds `add`; a query word of three letters
      // keeps to itself, above: `get` must not find `getting` in every getting-started heading)
      for (const [word, id] of this.terms.atPrefix(prefix)) {
        if (word.length >= 3 && /^[a-z]+$/.test(word) && stem(word) === key) forms.push({word, id});
      }
      return forms;
    });
  }

  /**
   * A query word's expansions, kept per (word, prefix, fuzzy): while a reader types, every word
   * before the last one is looked up again at each keystroke (typos above all: a walk of the
   * term tree). Cleared when terms are added (sharded).
   */
  expansions(term: string, prefix: boolean, fuzzy: boolean): readonly Expansion[] {
    return remembered(this.expansionCache, 500, `${prefix ? 1 : 0}${fuzzy ? 1 : 0}${term}`, () => this.expand(term, prefix, fuzzy));
  }

  /**
   * Every word found counts with the highest weight it is found with, and the list is in the
   * words' order: what a query word finds does not depend on the order the term tree lists its
   * words in (a sharded index's tree holds the terms files fetched, in the order fetched).
   */
  private expand(term: string, prefix: boolean, fuzzy: boolean): Expansion[] {
    const found = new Map<string, Expansion>();
    const add = (word: string, id: number, weight: number, exact: boolean) => {
      const had = found.get(word);
      if (!had || had.weight < weight) found.set(word, exact ? {id, weight, exact} : {id, term: word, weight, exact});
    };
    const id = this.terms.get(term);
    if (id !== undefined) add(term, id, 1, true);
    for (const form of this.sameStem(term)) add(form.word, form.id, STEM_WEIGHT, true);
    if (prefix) for (const c of this.completions(term)) add(c.word, c.id, PREFIX_WEIGHT, true);
    const typos = typosAllowed(term);
    if (fuzzy && typos > 0) {
      // The words within its typos, each at its distance; a transposition is one edit (MiniSearch's
      // Levenshtein counts it as two).
      const near = new Map<string, {id: number; distance: number}>();
      for (const word of transpositions(term)) {
        const id = this.terms.get(word);
        if (id !== undefined) near.set(word, {id, distance: 1});
      }
      for (const [word, [id, distance]] of this.terms.fuzzyGet(term, typos)) {
        if ((near.get(word)?.distance ?? Infinity) > distance) near.set(word, {id, distance});
      }
      // A word the index holds in no form (`rebot`: not as typed, in another form or completed),
      // whose one word a single typo away is `reboot`, is read as that word: it counts as the word
      // itself, since every section it finds needs that one typo (Algolia's typo criterion orders
      // hits by their typos, so it orders none of these), and the word's weight against the
      // query's other words stays BM25's. Every other word within its typos counts
      // typoMatchWeight × len / (len + typos): a typo of a word the index holds; one of several
      // words a typo away (`readd`: `read`, `reads`, `ready`); a word two typos away (`regarding`,
      // a word the site does not use, is two from `reading`); a word still being typed.
      let reading: string | null = null;
      if (found.size === 0 && !prefix) {
        const oneAway = [...near].filter(([, {distance}]) => distance === 1);
        if (oneAway.length === 1) reading = oneAway[0]![0];
      }
      for (const [word, {id, distance}] of near) {
        const w = word === reading ? 1 : (FUZZY_WEIGHT * term.length) / (term.length + distance);
        add(word, id, w, false);
        // and the word's other forms (`batery` → `battery` → `batteries`)
        for (const other of this.sameStem(word)) add(other.word, other.id, w * STEM_WEIGHT, false);
      }
    }
    return [...found].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([, e]) => e);
  }
}

/** A synonym's words as the engine matches a query's: its words without stop words (all of them when that leaves none). */
export function synonymWords(text: string): string[] {
  const all = tokenizeQuery(text);
  const kept = all.filter((t) => !STOP_WORDS.has(t));
  return kept.length > 0 ? kept : all;
}
