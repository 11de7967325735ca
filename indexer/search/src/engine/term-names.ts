/**
 * A sharded index's names (see names.ts) per word, as its terms files carry them: written at
 * build time from the records (encodeNames), read in the browser as the files arrive
 * (TermNames). Apart from names.ts so that the code a one-file index loads holds none of it.
 */
import {RANKING} from './ranking.ts';
import {definesBy, headingMatch, type SectionNames} from './names.ts';

/** Codes above the flags: a place in the section's own heading (see encodeNames). */
const FLAGS = 32;
/** (a heading of more words than a query reads can never be the query) */
const PLACES = 32;

/**
 * Per word, what the sections name of it, for a sharded index's terms files: [section delta,
 * code, ...] in section order, a code being the flags, plus FLAGS × (1 + length × PLACES + place)
 * for each place the word has in the section's own heading (a word twice in it: two entries).
 */
export function encodeNames(sections: number, namesOf: (section: number) => SectionNames | null): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const last = new Map<string, number>();
  const add = (word: string, s: number, code: number) => {
    let list = out.get(word);
    if (!list) out.set(word, (list = []));
    list.push(s - (last.get(word) ?? 0), code);
    last.set(word, s);
  };
  for (let s = 0; s < sections; s++) {
    const names = namesOf(s);
    if (!names) continue;
    const places = new Map<string, number[]>();
    const heading = names.heading !== null && names.heading.length <= Math.min(RANKING.maxWords, PLACES - 1) ? names.heading : [];
    heading.forEach((w, i) => places.set(w, [...(places.get(w) ?? []), FLAGS * (1 + heading.length * PLACES + i)]));
    for (const [w, f] of names.flags) {
      const [first = 0, ...more] = places.get(w) ?? [];
      add(w, s, f + first);
      for (const code of more) add(w, s, code);
      places.delete(w);
    }
    for (const [w, codes] of places) for (const code of codes) add(w, s, code);
  }
  return out;
}

/** A sharded index's names, per word, as its terms files arrive (see encodeNames). */
export class TermNames {
  /** word → section → codes */
  private readonly byWord = new Map<string, Map<number, number[]>>();

  /** The `names` of one terms file (words already known are kept). */
  add(names: Record<string, unknown>): void {
    for (const [word, list] of Object.entries(names)) {
      if (this.byWord.has(word) || !Array.isArray(list)) continue;
      const sections = new Map<number, number[]>();
      let s = 0;
      for (let j = 0; j + 1 < list.length; j += 2) {
        s += list[j] as number;
        sections.set(s, [...(sections.get(s) ?? []), list[j + 1] as number]);
      }
      this.byWord.set(word, sections);
    }
  }

  /** See definesBy. */
  defines(section: number, id: string, path: boolean): boolean {
    const codes = this.byWord.get(id)?.get(section) ?? [];
    return definesBy(codes.reduce((f, c) => f | (c % FLAGS), 0), path);
  }

  /** headingMatch of the section's own heading, from its words' places in it. */
  headingIs(section: number, terms: readonly string[]): number {
    const words: string[] = [];
    for (const t of new Set(terms)) {
      for (const code of this.byWord.get(t)?.get(section) ?? []) {
        if (code < FLAGS) continue;
        const place = Math.floor(code / FLAGS) - 1;
        const length = Math.floor(place / PLACES);
        // (a heading of another length is not the query: any place out of range says so)
        if (length !== terms.length) return 0;
        words[place % PLACES] = t;
      }
    }
    // every place filled by a query word: the heading is these words, in this order
    for (let i = 0; i < terms.length; i++) if (words[i] === undefined) return 0;
    return headingMatch(words, terms);
  }
}
