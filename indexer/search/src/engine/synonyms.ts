/**
 * Synonyms: one list, in Algolia's own synonym shape, so that `docs-indexer push` sends it to
 * Algolia as the index's synonyms and the local engine answers with the same list (carried in
 * the local index file). Two kinds, as Algolia's:
 * - `synonym`: every entry stands for every other (`kwh meter`, `energy meter`);
 * - `oneWaySynonym`: a query with `input` also finds the entries of `synonyms`, not the reverse
 *   (`live` finds `websocket`, but `websocket` does not find every page saying "live").
 * An entry may hold several words (`cut the power`); the engine matches it where the query holds
 * those words in a row (stop words aside). No `node:` import and no zod: bundled into the site.
 */
import {stem, tokenizeQuery} from './text.ts';

export interface Synonym {
  objectID: string;
  type: 'synonym' | 'oneWaySynonym';
  synonyms: string[];
  /** oneWaySynonym only: what the reader types. */
  input?: string;
}

/** Checks the shape of a synonym list (a file or an index's field); throws a one-line Error. */
export function checkSynonyms(value: unknown): Synonym[] {
  if (!Array.isArray(value)) throw new Error('synonyms: a list of synonym objects expected');
  const ids = new Set<string>();
  value.forEach((s: unknown, i) => {
    const o = s as Partial<Synonym> | null;
    const where = `synonyms[${i}]`;
    if (!o || typeof o !== 'object') throw new Error(`${where}: an object expected`);
    if (typeof o.objectID !== 'string' || o.objectID === '') throw new Error(`${where}: objectID must be a non-empty string`);
    if (ids.has(o.objectID)) throw new Error(`${where}: objectID "${o.objectID}" repeats an earlier one`);
    ids.add(o.objectID);
    if (o.type !== 'synonym' && o.type !== 'oneWaySynonym') throw new Error(`${where} (${o.objectID}): type must be "synonym" or "oneWaySynonym"`);
    if (!Array.isArray(o.synonyms) || o.synonyms.some((w) => typeof w !== 'string' || w.trim() === '')) {
      throw new Error(`${where} (${o.objectID}): synonyms must be a list of non-empty strings`);
    }
    if (o.type === 'synonym' && o.synonyms.length < 2) throw new Error(`${where} (${o.objectID}): a synonym needs at least two entries`);
    if (o.type === 'oneWaySynonym' && (typeof o.input !== 'string' || o.input.trim() === '' || o.synonyms.length < 1)) {
      throw new Error(`${where} (${o.objectID}): a oneWaySynonym needs an input and at least one synonym`);
    }
    if (o.type === 'synonym' && o.input !== undefined) throw new Error(`${where} (${o.objectID}): only a oneWaySynonym has an input`);
  });
  return value as Synonym[];
}

/** The words of an entry as the engine matches them: a query's words (stop words dropped by the caller's rule). */
export type WordsOf = (text: string) => string[];

/**
 * What the engine reads of a synonym list: per query word (or run of words), the words it also
 * finds. Words are compared by their stem, so `pushed` finds what `push` does.
 */
export class SynonymTable {
  /** First word's stem → the entries starting with it (their words) and what each finds. */
  private readonly byFirst = new Map<string, {words: string[]; finds: string[][]}[]>();
  declare readonly size: number;

  constructor(list: readonly Synonym[], wordsOf: WordsOf = tokenizeQuery) {
    const add = (from: string, to: string[]) => {
      const words = wordsOf(from);
      const finds = to.map(wordsOf).filter((w) => w.length > 0 && w.join(' ') !== words.join(' '));
      if (words.length === 0 || finds.length === 0) return;
      const key = stem(words[0]!);
      const list = this.byFirst.get(key) ?? [];
      const same = list.find((e) => e.words.join(' ') === words.join(' '));
      if (same) same.finds.push(...finds.filter((f) => !same.finds.some((g) => g.join(' ') === f.join(' '))));
      else list.push({words, finds});
      this.byFirst.set(key, list);
    };
    for (const s of list) {
      if (s.type === 'oneWaySynonym') add(s.input!, s.synonyms);
      else for (const w of s.synonyms) add(w, s.synonyms);
    }
    // Longest entries first: `kwh meter` before `kwh`.
    for (const list of this.byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
    this.size = list.length;
  }

  /**
   * The query's words grouped where entries match: each group is one word, or the run of words
   * of a matched entry, with the alternatives it finds (each a list of words).
   */
  group(terms: readonly string[]): {words: string[]; finds: string[][]}[] {
    const out: {words: string[]; finds: string[][]}[] = [];
    for (let i = 0; i < terms.length; ) {
      const entries = this.byFirst.get(stem(terms[i]!)) ?? [];
      const hit = entries.find((e) => e.words.length <= terms.length - i && e.words.every((w, k) => w === terms[i + k] || stem(w) === stem(terms[i + k]!)));
      if (hit) {
        out.push({words: terms.slice(i, i + hit.words.length), finds: hit.finds});
        i += hit.words.length;
      } else {
        out.push({words: [terms[i]!], finds: []});
        i += 1;
      }
    }
    return out;
  }
}
