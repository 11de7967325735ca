/**
 * What a section names: the words of its own heading and the first cells of its table rows. Two
 * rules read it (order.ts): `defined-first` (a section whose heading or table row names a query
 * word defines it, and ranks above the sections quoting it) and `exact-heading` (a section whose
 * own heading is the query). An engine holding the records reads it from a section's records
 * (sectionNames); a sharded index carries the same facts per word in its terms files
 * (encodeNames, TermNames), written from the records with these functions, so that a browser
 * ranks by them before it has fetched any record and both formats give the same answers.
 */
import {LEVELS, type SearchRecord} from '../record/constants.ts';
import {QUESTION_WORDS, STOP_WORDS} from './fields.ts';
import {RANKING} from './ranking.ts';
import {decodeEntities, normalizeTerm, tokenizeQuery} from './text.ts';

/** How a section names a word: flags (see definesBy). */
const HEADING_WORD = 1;
/** `/word` stands alone in its heading (a path). */
const HEADING_PATH = 2;
/** A table row's first cell is the word. */
const ROW = 4;
/** A table row's first cell is `/word`. */
const PATH_ROW = 8;
/** A cell gives the word as a path after an HTTP method (`PUT /api/system/reboot`). */
const METHOD_PATH = 16;
/** Codes above the flags: a place in the section's own heading (see encodeNames). */
const FLAGS = 32;
/** (a heading of more words than a query reads can never be the query) */
const PLACES = 32;

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** What one section names. */
export interface SectionNames {
  /** Per word, how the section names it (flags). */
  readonly flags: Map<string, number>;
  /** The words of its own heading (lvl1..lvl6), stop words and a question's words left out, in order; null: no such heading. */
  readonly heading: string[] | null;
}

/**
 * The names of a section from its records: `lead`, the record standing for it, and the plain
 * text of its paragraphs. Its heading: a heading record's own level; a section of paragraphs
 * only, the deepest heading they sit under (a page's lvl0 names nothing). Its table rows: the
 * paragraphs of cells joined by ` · `.
 */
export function sectionNames(lead: SearchRecord, paragraphs: readonly string[]): SectionNames {
  const flags = new Map<string, number>();
  // (a query word is never empty and holds no space: a row's first cell of several words names none)
  const flag = (word: string, f: number) => void (word !== '' && !/\s/.test(word) && flags.set(word, (flags.get(word) ?? 0) | f));
  if (lead.type !== 'lvl0') {
    const own = lead.type === 'content' ? LEVELS.slice(1).reduce<string | null>((found, k) => lead.hierarchy[k] ?? found, null) : lead.hierarchy[lead.type];
    if (own) {
      const text = normalizeTerm(decodeEntities(own));
      for (const w of tokenizeQuery(text)) flag(w, HEADING_WORD);
      // (` /api ` in a heading names the path `/api`, a word typed as a path)
      for (const part of text.split(' ')) if (part.startsWith('/')) flag(part.slice(1), HEADING_PATH);
    }
  }
  for (const text of paragraphs) {
    if (!text.includes(' · ')) continue;
    const cells = text.split(' · ');
    // (the first cell is the identifier alone: `power_w`, `/api/user`, `json:parameter-missing:<parameter>`)
    const row = cells[0]!.replace(/<[^>]*>/g, '').replace(/:$/, '').trim();
    flag(row, ROW);
    if (row.startsWith('/')) flag(row.slice(1), PATH_ROW);
    for (const cell of cells) {
      const words = tokenizeQuery(cell);
      if (words.length === 2 && HTTP_METHODS.has(words[0]!)) flag(words[1]!, METHOD_PATH);
    }
  }
  return {flags, heading: ownHeading(lead)};
}

/** The words of a section's own heading (lvl1..lvl6) as a query is read: stop words and, in a heading of several words, a question's words left out. */
function ownHeading(lead: SearchRecord): string[] | null {
  if (lead.type === 'content' || lead.type === 'lvl0') return null;
  const own = lead.hierarchy[lead.type];
  if (!own) return null;
  const all = tokenizeQuery(decodeEntities(own));
  // ("How often to poll" is the query `how often to poll`, whose `how` is dropped)
  return all.filter((w) => !STOP_WORDS.has(w) && !(all.length > 1 && QUESTION_WORDS.has(w)));
}

/**
 * Whether these flags define the word: its heading names it (a whole word) or a table row
 * starts with it or gives it after a method; a word typed as a path (`/api`), only where it
 * stands as a path (in the heading, a row's first cell, after a method), not as the word `api`
 * of a title.
 */
export function definesBy(flags: number, path: boolean): boolean {
  return (flags & (path ? HEADING_PATH | PATH_ROW | METHOD_PATH : HEADING_WORD | ROW | PATH_ROW | METHOD_PATH)) !== 0;
}

/**
 * Whether a heading's words are the query's, each exactly, no more (Algolia's `exact` criterion
 * on an attribute): 2 in the query's order, 1 in another (Algolia's proximity criterion puts the
 * first above), 0 when they are not.
 */
export function headingMatch(words: readonly string[], terms: readonly string[]): number {
  if (words.length !== terms.length) return 0;
  const left = [...terms];
  for (const w of words) {
    const i = left.indexOf(w);
    if (i < 0) return 0;
    left.splice(i, 1);
  }
  return words.every((w, i) => w === terms[i]) ? 2 : 1;
}

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
