/**
 * Highlighting and snippets of escaped record text: the highlight tags are only ever inserted
 * between characters of the escaped text, never query text, and never inside an entity.
 */
import {matchLength, PLAIN, remembered, SPACE, WORD, wordPieces, type TypoTerms} from './text.ts';

export interface HighlightOptions {
  terms: string[];
  /** Whether the last query term may match as a prefix (the reader is typing it). */
  prefixLast: boolean;
  preTag: string;
  postTag: string;
  /** Shared by every attribute of every hit of one query (see createMatcher). */
  matcher?: Matcher;
  /** Matches found per text, so highlight and snippet of one attribute scan it once. */
  cache?: Map<string, {ranges: [number, number][]; found: Set<number>}>;
}

/** For an indexed piece of text: which query terms it matches and how many characters to mark. */
export type Matcher = (piece: string) => readonly {term: number; len: number}[];

/** A memoizing matcher for one query: each distinct word is compared with the terms once. */
export function createMatcher(terms: readonly string[], prefixLast: boolean, typoTerms?: TypoTerms): Matcher {
  const memo = new Map<string, {term: number; len: number}[]>();
  const none: {term: number; len: number}[] = [];
  // With the typos known (typoTerms), a piece matches a term only if it starts with the term's
  // first letter (the word, a completion, another form) or is one of its typo words: most
  // pieces of a text are turned down by their first letter, without a lookup.
  let firsts: string | null = null;
  let typoWords: Set<string> | null = null;
  if (typoTerms) {
    firsts = terms.map((t) => t[0] ?? '').join('');
    typoWords = new Set();
    for (const t of terms) for (const w of typoTerms.get(t) ?? []) typoWords.add(w);
  }
  return (piece) => {
    if (firsts !== null && (piece.length === 0 || !firsts.includes(piece[0]!)) && !typoWords!.has(piece)) return none;
    let found = memo.get(piece);
    if (found === undefined) {
      found = none;
      for (let t = 0; t < terms.length; t++) {
        const len = matchLength(terms[t]!, piece, prefixLast && t === terms.length - 1, typoTerms);
        if (len > 0) (found === none ? (found = []) : found).push({term: t, len});
      }
      if (memo.size > 20_000) memo.clear();
      memo.set(piece, found);
    }
    return found;
  };
}

export interface HighlightValue {
  value: string;
  matchLevel: 'none' | 'partial' | 'full';
  matchedWords: string[];
  fullyHighlighted?: boolean;
}

/** Ranges [start, end) of the escaped text to highlight, and the query terms found. */
function findMatches(text: string, opts: HighlightOptions): {ranges: [number, number][]; found: Set<number>} {
  const cached = opts.cache?.get(text);
  if (cached) return cached;
  const result = scanMatches(text, opts);
  opts.cache?.set(text, result);
  return result;
}

/** Whether the word at [start, end) of escaped text is the body of an entity (`lt` in `&lt;`). */
function inEntity(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(end) !== 59 /* ; */) return false;
  const before = text.charCodeAt(start - 1);
  return before === 38 /* & */ || (before === 35 /* # */ && text.charCodeAt(start - 2) === 38);
}

/** The pieces of every word of an escaped text (entities skipped), as flat lists. */
interface TextPieces {
  terms: string[];
  starts: number[];
  ends: number[];
  /** Which word each piece belongs to. */
  words: number[];
}

const piecesCache = new Map<string, TextPieces>();
const PIECES_CACHED = 5000;

/**
 * Texts are split into pieces once and kept (a bounded cache): while a reader types, the same
 * records come back keystroke after keystroke, and only their matching is redone.
 */
function textPieces(text: string): TextPieces {
  return remembered(piecesCache, PIECES_CACHED, text, () => splitPieces(text));
}

function splitPieces(text: string): TextPieces {
  const tp: TextPieces = {terms: [], starts: [], ends: [], words: []};
  const word = new RegExp(WORD.source, 'gu');
  let n = 0;
  for (let m = word.exec(text); m !== null; m = word.exec(text)) {
    const start = m.index;
    const w = m[0];
    // Scan only outside entities, so a tag never lands inside `&lt;`.
    if (inEntity(text, start, start + w.length)) continue;
    if (PLAIN.test(w)) {
      tp.terms.push(w.toLowerCase());
      tp.starts.push(start);
      tp.ends.push(start + w.length);
      tp.words.push(n++);
      continue;
    }
    for (const piece of wordPieces(w, start)) {
      tp.terms.push(piece.term);
      tp.starts.push(piece.start);
      tp.ends.push(piece.end);
      tp.words.push(n);
    }
    n++;
  }
  return tp;
}

function scanMatches(text: string, opts: HighlightOptions): {ranges: [number, number][]; found: Set<number>} {
  const ranges: [number, number][] = [];
  const found = new Set<number>();
  if (opts.terms.length === 0) return {ranges, found};
  const matcher = opts.matcher ?? createMatcher(opts.terms, opts.prefixLast);
  const {terms, starts, ends, words} = textPieces(text);
  let word = -1;
  let done = 0;
  for (let p = 0; p < terms.length; p++) {
    const matches = matcher(terms[p]!);
    if (matches.length === 0) continue;
    if (words[p] !== word) {
      word = words[p]!;
      done = 0;
    }
    for (const {term, len} of matches) {
      // once per word and query word (past 30 words, every piece that matches)
      const bit = term < 30 ? 1 << term : 0;
      if (done & bit) continue;
      done |= bit;
      found.add(term);
      ranges.push([starts[p]!, Math.min(ends[p]!, starts[p]! + len)]);
    }
  }
  if (ranges.length > 1) ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push(r);
  }
  return {ranges: merged, found};
}

function applyRanges(text: string, ranges: [number, number][], pre: string, post: string, from = 0, to = text.length): string {
  let out = '';
  let pos = from;
  for (const [s, e] of ranges) {
    if (e <= from || s >= to) continue;
    const start = Math.max(s, from);
    const end = Math.min(e, to);
    out += text.slice(pos, start) + pre + text.slice(start, end) + post;
    pos = end;
  }
  return out + text.slice(pos, to);
}

/** The query words found, in query order (most texts hold none or one: no sort then). */
function matchedWords(found: Set<number>, terms: string[]): string[] {
  if (found.size === 0) return [];
  if (found.size === 1) {
    for (const i of found) return [terms[i]!];
  }
  return [...found].sort((a, b) => a - b).map((i) => terms[i]!);
}

function level(found: Set<number>, terms: string[]): HighlightValue['matchLevel'] {
  if (found.size === 0) return 'none';
  return found.size === terms.length ? 'full' : 'partial';
}

function isSpaceAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && SPACE.test(text[i]!);
}

/**
 * Per text: its length without spaces, and its word count when it has no space at either end
 * (else -1), kept once counted (a bounded cache): a reader typing gets the same records back
 * keystroke after keystroke.
 */
const textCounts = new Map<string, {nonSpace: number; words: number}>();

function counts(text: string): {nonSpace: number; words: number} {
  return remembered(textCounts, PIECES_CACHED, text, () => {
    const end = text.length;
    let words = -1;
    if (end > 0 && !isSpaceAt(text, 0) && !isSpaceAt(text, end - 1)) {
      words = 1;
      for (let i = 1; i < end; i++) if (isSpaceAt(text, i) && !isSpaceAt(text, i - 1)) words++;
    }
    return {nonSpace: countNonSpace(text), words};
  });
}

function nonSpaceLength(text: string): number {
  return counts(text).nonSpace;
}

function countNonSpace(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (!isSpaceAt(text, i)) n++;
  return n;
}

/** Algolia's `_highlightResult` entry for one attribute of escaped text. */
export function highlight(text: string, opts: HighlightOptions): HighlightValue {
  const {ranges, found} = findMatches(text, opts);
  const value = applyRanges(text, ranges, opts.preTag, opts.postTag);
  const covered = ranges.reduce((n, [s, e]) => n + e - s, 0);
  return {
    value,
    matchLevel: level(found, opts.terms),
    fullyHighlighted: ranges.length > 0 && covered >= nonSpaceLength(text),
    matchedWords: matchedWords(found, opts.terms),
  };
}

/**
 * Whether `snippet(text, words)` is the whole text highlighted: no space at either end and at
 * most `words` words (at least one).
 */
export function fitsSnippet(text: string, words: number): boolean {
  const n = counts(text).words;
  return n >= 1 && n <= Math.max(1, words);
}

/** fitsSnippet, counting (for tests: the cached answer is this one). */
export function fitsSnippetUncached(text: string, words: number): boolean {
  const end = text.length;
  if (end === 0 || isSpaceAt(text, 0) || isSpaceAt(text, end - 1)) return false;
  let n = 1;
  const most = Math.max(1, words);
  for (let i = 1; i < end; i++) {
    if (isSpaceAt(text, i) && !isSpaceAt(text, i - 1) && ++n > most) return false;
  }
  return true;
}

/** Algolia's `_snippetResult` entry: `words` words around the first match, `…` where cut. */
export function snippet(text: string, words: number, opts: HighlightOptions & {ellipsis: string}): HighlightValue {
  const {ranges, found} = findMatches(text, opts);
  // Walk words out from the first match (never over the whole text): floor(words / 4) words
  // before it, the rest from it on, moved earlier when the text ends first.
  const count = Math.max(1, words);
  const isSpace = (i: number) => isSpaceAt(text, i);
  const end = text.length;
  let pos = ranges.length > 0 ? ranges[0]![0] : 0;
  while (pos < end && isSpace(pos)) pos++;
  while (pos > 0 && !isSpace(pos - 1)) pos--;
  let from = pos;
  let before = 0;
  const stepBack = (): boolean => {
    let i = from;
    while (i > 0 && isSpace(i - 1)) i--;
    if (i === 0) return false;
    while (i > 0 && !isSpace(i - 1)) i--;
    from = i;
    return true;
  };
  while (before < Math.floor(count / 4) && stepBack()) before++;
  let to = pos;
  let taken = 0;
  for (let i = pos; taken < count - before && i < end; ) {
    while (i < end && isSpace(i)) i++;
    if (i >= end) break;
    while (i < end && !isSpace(i)) i++;
    to = i;
    taken++;
  }
  while (before + taken < count && stepBack()) before++;
  let value = '';
  if (taken > 0 || before > 0) {
    if (taken === 0) to = from;
    value = applyRanges(text, ranges, opts.preTag, opts.postTag, from, to);
    let head = from;
    while (head > 0 && isSpace(head - 1)) head--;
    if (head > 0) value = opts.ellipsis + value;
    let tail = to;
    while (tail < end && isSpace(tail)) tail++;
    if (tail < end) value += ` ${opts.ellipsis}`;
  }
  return {
    value,
    matchLevel: level(found, opts.terms),
    matchedWords: matchedWords(found, opts.terms),
  };
}
