/**
 * A query as a value: the words read from the text typed (parseQuery) and, per search, what the
 * ranking reads of it (Query). The ranking's steps are functions over it: matching and scoring
 * (score.ts), ordering (order.ts, tiers.ts); the engine (search.ts) holds the index only.
 */
import type {RecordType} from '../record/constants.ts';
import {QUESTION_WORDS, STOP_WORDS} from './fields.ts';
import type {TermMatcher} from './matching.ts';
import {RANKING, ruleOn} from './ranking.ts';
import {tokenizeQuery} from './text.ts';

/** What a query's text says: its words and how they are read. */
export interface ParsedQuery {
  /** The last word matches as a prefix (no space after it). */
  readonly prefixLast: boolean;
  /** The words ranked: stop words and a question's words dropped, a run a synonym names as one term (`kwh meter`). */
  readonly terms: string[];
  /** Per term a synonym names: the words it also finds (each a list of words); null: none. */
  readonly finds: Map<string, string[][]> | null;
  /** Words typed as a path (`/api`): identifiers, whatever their shape. */
  readonly pathWords: ReadonlySet<string>;
}

/** One search: the parsed query, the sections its filters let through, what they let a hit show, how many hits are needed. */
export interface Query extends ParsedQuery {
  /** Per section, 1 when the filters let it through; undefined: no filter. */
  readonly pass: Uint8Array | undefined;
  /** The record types the `type` filters let a hit show (null: any). */
  readonly typeOk: ((type: RecordType) => boolean) | null;
  /** Hits needed in order (Infinity: all). */
  readonly need: number;
}

/**
 * The words of a query. Stop words and the words of a question ("how", "which", "does", "can I")
 * are dropped wherever they stand, a last word still being typed too, so that they never decide
 * the order; all of them are kept when nothing else is left (`the` alone may become `theme`).
 * Runs of words a synonym names become one term.
 */
export function parseQuery(matcher: TermMatcher, query: string): ParsedQuery {
  const prefixLast = !/\s$/.test(query);
  const all = tokenizeQuery(query).slice(0, RANKING.maxWords);
  const pathWords = new Set(Array.from(query.matchAll(/(?:^|\s)\/([^\s/][^\s]*)/g), (m) => tokenizeQuery(m[1]!)[0] ?? ''));
  const question = (t: string) => ruleOn('question-words') && all.length > 1 && QUESTION_WORDS.has(t);
  const kept = all.filter((t) => !question(t) && !STOP_WORDS.has(t));
  const {terms, finds} = matcher.withSynonyms(kept.length > 0 ? kept : all);
  return {prefixLast, terms, finds, pathWords};
}

/**
 * A query word that names an identifier: snake_case, dotted, colon or path-like
 * (`active_power_l1_w`, `hierarchy.lvl0`, `user:unauthorized`, `api/v2/batteries`), or three
 * parts or more joined by hyphens (`x-api-version`; not `plug-in` or `wi-fi`).
 */
export function isIdentifier(term: string): boolean {
  return !term.includes(' ') && (/[_:/.]/.test(term) || /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+){2,}$/u.test(term));
}
