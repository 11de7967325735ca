/**
 * The record shown for a hit: a hit is a section (the records of one URL), and the record shown
 * is its heading when that holds every word of the query, else the paragraph holding most of
 * them. Its highlights and snippets are made from that record (highlight.ts, answer.ts).
 */
import {LEVELS, type RecordType, type SearchRecord} from '../record/constants.ts';
import {decodeEntities, normalizeTerm, stem, stemRoot, type TypoTerms} from './text.ts';
import {isWordChar, popcount, standsAlone} from './words.ts';
import {TermMatcher} from './matching.ts';
import {definesBy, headingMatch, sectionNames, type SectionNames} from './names.ts';

/**
 * What choosing a section's record reads of one query (a value per query, made by the ranking):
 * its words, the index words each matched through a typo or a synonym, the record types its
 * filters let a hit show (null: any); `tests` keeps the word tests made for it (see wordTests).
 */
export interface Reading {
  readonly terms: string[];
  readonly prefixLast: boolean;
  readonly typoTerms: TypoTerms;
  readonly typeOk: ((type: RecordType) => boolean) | null;
  tests?: ((text: string) => boolean)[];
}

export interface RankedHit {
  /** Index of the record shown for this hit. */
  readonly index: number;
  readonly record: SearchRecord;
  readonly score: number;
}

/**
 * Picks the record shown for a section among its records (those loaded, in a sharded index).
 * A layer of the engine: LocalSearchEngine (search.ts) extends it and holds the records.
 */
export abstract class RecordChooser extends TermMatcher {
  /** Every record (a sharded index: only those of the sections loaded so far). */
  abstract readonly records: SearchRecord[];
  /** Per section: its records (record indices, in order). */
  abstract readonly members: number[][];
  /** Per section: the record that stands for it; -1 until loaded. */
  abstract readonly lead: Int32Array;

  private readonly plain: (string | undefined)[] = [];

  /** Lowercased plain text of a record's heading (lvl1..) and content, kept once computed. */
  private plainText(i: number): string {
    let text = this.plain[i];
    if (text === undefined) {
      const r = this.records[i]!;
      const parts = r.type === 'content' ? [r.content] : LEVELS.slice(1).map((k) => r.hierarchy[k]);
      text = normalizeTerm(decodeEntities(parts.filter((p) => p !== null).join(' ')));
      this.plain[i] = text;
    }
    return text;
  }

  /**
   * Per query word, a test for "this plain text holds the word" (see bestRecord), made once per
   * reading (kept in it) and asked for every record read.
   */
  private wordTests(reading: Reading): ((text: string) => boolean)[] {
    if (reading.tests) return reading.tests;
    const {terms, prefixLast, typoTerms} = reading;
    const last = terms.length - 1;
    const tests = terms.map((t, k) => {
      // Words that start where a word does (after a space, `_`, `-`, `/`...): `socket` is not in
      // `websocket`. They count when they are the word, another form of it (`supported` for
      // `supports`) or, for a last word still being typed, a completion of it; but once the
      // index knows the word typed, a completion does not make the words stand together
      // (`off` is not in `offers`), as completions rank below the word itself.
      const completes = prefixLast && k === last && !(t.length >= 3 && this.terms.has(t));
      const form = stem(t);
      // (a word's root, `batter` for `batteries`, starts every form of it and the word itself)
      const root = stemRoot(t);
      const typos = typoTerms.get(t);
      // (a typo word counts where it stands alone: no letter or digit on either side; found with
      // indexOf rather than a regular expression made per query, whose compiling, Unicode
      // classes and all, cost more than the search it served)
      const typo = typos ? [...typos] : null;
      return (text: string) => {
        // every place the root starts a word: the word there, to its end
        for (let i = text.indexOf(root); i >= 0; i = text.indexOf(root, i + 1)) {
          if (i > 0 && isWordChar(text.charCodeAt(i - 1))) continue;
          let end = i + root.length;
          while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
          const w = text.slice(i, end);
          if (w === t || (completes && w.startsWith(t)) || stem(w) === form) return true;
        }
        return typo !== null && typo.some((w) => standsAlone(text, w));
      };
    });
    reading.tests = tests;
    return tests;
  }

  /**
   * The record shown for a section: its heading if that holds every word, else the paragraph
   * that holds most of them with its headings (a choice among a few records, not a match), and
   * how many words that record holds.
   */
  bestRecord(section: number, reading: Reading): {index: number; words: number} {
    const {terms, typeOk} = reading;
    const lead = this.lead[section]!;
    // Records not fetched yet (sharded): counted as holding every word.
    if (lead < 0) return {index: -1, words: terms.length};
    // A `type` filter: the hit is a record of a type it lets through (see passes).
    const leadOk = !typeOk || typeOk(this.records[lead]!.type);
    const contentOk = !typeOk || typeOk('content');
    if (terms.length === 0 || (!leadOk && !contentOk)) {
      const first = leadOk || !contentOk ? lead : (this.members[section]!.find((i) => this.records[i]!.type === 'content') ?? lead);
      return {index: first, words: 0};
    }
    const tests = this.wordTests(reading);
    const count = (text: string, mask: number) => {
      for (let k = 0; k < terms.length; k++) if (!(mask & (1 << k)) && tests[k]!(text)) mask |= 1 << k;
      return mask;
    };
    const all = (1 << terms.length) - 1;
    const headMask = this.records[lead]!.type === 'content' ? 0 : count(this.plainText(lead), 0);
    let best = leadOk ? lead : -1;
    let bestWords = leadOk ? popcount(headMask) : -1;
    if (headMask !== all || !leadOk) {
      for (const i of this.members[section]!) {
        if (this.records[i]!.type !== 'content' || !contentOk) continue;
        const words = popcount(count(this.plainText(i), headMask));
        if (words > bestWords) {
          bestWords = words;
          best = i;
        }
        if (words === terms.length) break;
      }
    }
    return best < 0 ? {index: lead, words: popcount(headMask)} : {index: best, words: bestWords};
  }

  /**
   * Whether a section defines the identifier `id` (a query word such as `power_w`,
   * `user:unauthorized`, `api/system/reboot`): its own heading names it (a whole word there), or
   * one of its table rows (a record of cells joined by ` · `) starts with it alone, or gives it as a
   * method and path (`PUT /api/system/reboot`). A section that quotes it in an example or in a
   * sentence does not (see names.ts).
   */
  defines(section: number, id: string, path = false): boolean {
    return definesBy(this.namesOf(section)?.flags.get(id) ?? 0, path);
  }

  /**
   * Whether a section's own heading (lvl1..lvl6) is the query: its words (stop words aside, and
   * the words of a question as the query drops them) are the query's words, each exactly, no more:
   * 2 in the query's order, 1 in another, 0 when it is not (see headingMatch).
   */
  headingIs(section: number, terms: readonly string[]): number {
    const heading = this.namesOf(section)?.heading;
    return heading ? headingMatch(heading, terms) : 0;
  }

  /** Per section (once its records are here): what its heading and table rows name. */
  private readonly names = new Map<number, SectionNames>();

  /** What a section names (see names.ts); null while its records are not here. */
  namesOf(section: number): SectionNames | null {
    let names = this.names.get(section);
    if (names) return names;
    const lead = this.lead[section]!;
    if (lead < 0) return null;
    const paragraphs = this.members[section]!.filter((i) => this.records[i]!.type === 'content').map((i) => this.plainText(i));
    names = sectionNames(this.records[lead]!, paragraphs);
    this.names.set(section, names);
    return names;
  }

  hitFor(section: number, score: number, reading: Reading): RankedHit {
    const {index} = this.bestRecord(section, reading);
    if (index < 0) throw new Error(`the records of section ${section} are not loaded`);
    return {index, record: this.records[index]!, score};
  }
}
