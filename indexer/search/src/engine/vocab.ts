/**
 * The vocabulary files of a sharded index (format 3, see README.md): every indexed term, one
 * file per word length, fetched only to look up a query word's typos. The terms files of the
 * words found a typo away are then fetched too, so a sharded index forgives exactly the typos an
 * engine holding every term forgives, while a query without typos fetches no more than before.
 */
import {LocalIndexError} from './index-file.ts';
import {shardKey, SHARDED_INDEX_FORMAT} from './manifest.ts';
import {RANKING} from './ranking.ts';
import {editDistanceWithin, typosAllowed} from './text.ts';

/** The shortest word a typo may reach: a word of typoMinLength[0] letters less its one typo (and so on). */
const VOCAB_SHORTEST = Math.min(...RANKING.typoMinLength.map((length, i) => length - (i + 1)));
/** The last vocabulary file holds the words of this length and every longer one (few words are that long). */
export const VOCAB_LONGEST = 20;

/** The vocabulary file holding the words of one length. */
export const vocabFile = (length: number): string => `v-${Math.min(length, VOCAB_LONGEST)}.json`;

/**
 * Adds the vocabulary files of `terms` to `files` (name → text): one per length from
 * VOCAB_SHORTEST to the longest word's (at most VOCAB_LONGEST), words sorted, a length without a
 * word too (so the manifest names only the last). Returns that last length (0: no file).
 */
export function vocabFiles(terms: readonly string[], files: Map<string, string>): number {
  const byLength = new Map<number, string[]>();
  let last = 0;
  for (const term of terms) {
    if (term.length < VOCAB_SHORTEST) continue;
    const n = Math.min(term.length, VOCAB_LONGEST);
    last = Math.max(last, n);
    let list = byLength.get(n);
    if (!list) byLength.set(n, (list = []));
    list.push(term);
  }
  for (let n = VOCAB_SHORTEST; n <= last; n++) files.set(vocabFile(n), JSON.stringify({format: SHARDED_INDEX_FORMAT, words: (byLength.get(n) ?? []).sort()}));
  return last;
}

/** Reads one vocabulary file. */
export function decodeVocab(file: unknown): string[] {
  const f = file as {format?: unknown; words?: unknown} | null;
  if (!f || f.format !== SHARDED_INDEX_FORMAT || !Array.isArray(f.words)) throw new LocalIndexError(`not a local search index vocabulary (format ${SHARDED_INDEX_FORMAT} expected)`);
  return f.words as string[];
}

/** The word lengths of the vocabulary files a lookup of `word`'s typos reads (see typosAllowed), up to `last` (the manifest's vocab). */
export function typoLengths(word: string, last = VOCAB_LONGEST): number[] {
  const typos = typosAllowed(word);
  const lengths = new Set<number>();
  for (let n = Math.max(VOCAB_SHORTEST, word.length - typos); n <= word.length + typos; n++) if (Math.min(n, VOCAB_LONGEST) <= last) lengths.add(Math.min(n, VOCAB_LONGEST));
  return [...lengths];
}

/**
 * The shard keys of every word of the vocabulary within `word`'s typos (a transposition counting
 * as one, as the engine counts it): the terms files holding what the engine finds forgiving them.
 * `words(length)`: the vocabulary's words of one of typoLengths(word).
 */
export function typoShardKeys(word: string, words: (length: number) => readonly string[]): Set<string> {
  const typos = typosAllowed(word);
  const keys = new Set<string>();
  for (const n of typoLengths(word)) for (const w of words(n)) if (editDistanceWithin(word, w, typos)) keys.add(shardKey(w));
  return keys;
}
