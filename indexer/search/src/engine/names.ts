/**
 * What a section names: the words of its own heading and the first cells of its table rows. Two
 * rules read it (order.ts): `defined-first` (a section whose heading or table row names a query
 * word defines it, and ranks above the sections quoting it) and `exact-heading` (a section whose
 * own heading is the query). An engine holding the records reads it from a section's records
 * (sectionNames); a sharded index carries the same facts per word in its terms files
 * (term-names.ts), written from the records with these functions, so that a browser ranks by
 * them before it has fetched any record and both formats give the same answers.
 */
import {LEVELS, type SearchRecord} from '../record/constants.ts';
import {QUESTION_WORDS, STOP_WORDS} from './fields.ts';
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
