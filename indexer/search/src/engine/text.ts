/**
 * Text rules of the local search engine: entity decoding, the index and query tokenizers, and
 * the matching rules (typos, prefixes) that ranking and highlighting share.
 */
import {RANKING} from './ranking.ts';

const ENTITY = /&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/gi;
const NAMED: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' '};

/** Decodes the entities the extractor produces (and numeric ones) for tokenizing only. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (entity) => {
    const body = entity.slice(1, -1);
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
    }
    return NAMED[body.toLowerCase()] ?? ' ';
  });
}

/** A word: letters, digits and `_`, joined by `-`, `:`, `.`, `/` or `@` (identifiers, paths). */
export const WORD = /[\p{L}\p{N}_]+(?:[-:./@][\p{L}\p{N}_]+)*/gu;
/** A tail of an identifier starts after one of these (`api-version`, `power_w`, `_tcp.local`). */
const TAIL_START = /[-:./@_]/;

const ASCII = /^[ -~]*$/;
export const SPACE = /\s/;

export function normalizeTerm(term: string): string {
  if (ASCII.test(term)) return term.toLowerCase();
  return term.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A plain word (one piece only): lowercase letters or digits. The common case, kept fast. */
export const PLAIN = /^(?:[a-z]+|[0-9]+|[A-Z][a-z]*)$/;

export interface Piece {
  /** Normalized text of the piece. */
  term: string;
  start: number;
  end: number;
}

/**
 * The searchable pieces of one word: the whole word, every tail that starts after a separator
 * or `_` (`api-version` in `x-api-version`, `power_w` in `active_power_w`), and its parts split at separators, `_` and camelCase.
 */
export function wordPieces(word: string, offset: number): Piece[] {
  if (PLAIN.test(word)) return [{term: word.toLowerCase(), start: offset, end: offset + word.length}];
  const pieces: Piece[] = [{term: normalizeTerm(word), start: offset, end: offset + word.length}];
  const seen = new Set([pieces[0]!.term]);
  const add = (start: number, end: number) => {
    const term = normalizeTerm(word.slice(start, end));
    if (term && !seen.has(term)) {
      seen.add(term);
      pieces.push({term, start: offset + start, end: offset + end});
    }
  };
  for (let i = 1; i < word.length; i++) {
    if (TAIL_START.test(word[i - 1]!) && !TAIL_START.test(word[i]!)) add(i, word.length);
  }
  for (const m of word.matchAll(/[\p{Lu}]?[\p{Ll}]+|[\p{Lu}]+(?![\p{Ll}])|[\p{L}]+|[\p{N}]+/gu)) {
    add(m.index, m.index + m[0].length);
  }
  // letters+digits kept together too (`v2`, `l1`), split only at separators and `_`
  for (const m of word.matchAll(/[\p{L}\p{N}]+/gu)) add(m.index, m.index + m[0].length);
  return pieces;
}

/**
 * Index tokenizer: every piece of every word of the (decoded) text; `whole` keeps only whole
 * words, `parts` only the tails and parts of identifiers (for the engine's two field kinds).
 */
export function tokenizeForIndex(text: string, kind: 'all' | 'whole' | 'parts' = 'all'): string[] {
  const out: string[] = [];
  for (const m of decodeEntities(text).matchAll(WORD)) {
    const word = m[0];
    if (PLAIN.test(word)) {
      if (kind !== 'parts') out.push(word.toLowerCase());
      continue;
    }
    const pieces = wordPieces(word, 0);
    if (kind === 'whole') out.push(pieces[0]!.term);
    else for (const piece of kind === 'parts' ? pieces.slice(1) : pieces) out.push(piece.term);
  }
  return out;
}

/**
 * tokenizeForIndex(text, 'whole') and (text, 'parts') in one pass. `pieces`: the terms of each
 * identifier-like word met so far (whole word first), kept by the caller across the texts of
 * one index: a site repeats the same identifiers (`active_power_w`, `HomeWizard`, `API`), and
 * splitting them again was a quarter of building the index in the browser (measured, 23 pages).
 */
export function tokenizeWholeAndParts(text: string, pieces: Map<string, string[]> = new Map()): [string[], string[]] {
  const whole: string[] = [];
  const parts: string[] = [];
  const word = new RegExp(WORD.source, 'gu');
  const decoded = decodeEntities(text);
  for (let m = word.exec(decoded); m !== null; m = word.exec(decoded)) {
    const w = m[0];
    if (PLAIN.test(w)) {
      whole.push(w.toLowerCase());
      continue;
    }
    let terms = pieces.get(w);
    if (terms === undefined) pieces.set(w, (terms = wordPieces(w, 0).map((p) => p.term)));
    whole.push(terms[0]!);
    for (let i = 1; i < terms.length; i++) parts.push(terms[i]!);
  }
  return [whole, parts];
}

/** Query tokenizer: whole words only, so `active_power_w` asks for the identifier itself. */
export function tokenizeQuery(query: string): string[] {
  return Array.from(query.matchAll(WORD), (m) => normalizeTerm(m[0]));
}


/**
 * Typos forgiven: 1 from RANKING.typoMinLength[0] letters, 2 from [1]; none in a number (`2023`
 * is not `2024`), as the Algolia index is set (`allowTyposOnNumericTokens: false`).
 */
export function typosAllowed(term: string): number {
  if (/^\d+$/.test(term)) return 0;
  const [one, two] = RANKING.typoMinLength;
  return term.length >= two ? 2 : term.length >= one ? 1 : 0;
}

/**
 * Whether a and b are within `max` edits, a transposition of two neighbouring letters counting
 * as one edit (optimal string alignment): `mdsn` is one edit from `mdns`, as a reader sees it.
 */
export function editDistanceWithin(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev2: number[] = [];
  let prev = Array.from({length: b.length + 1}, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return false;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]! <= max;
}

/** The words one transposition of neighbouring letters away (`mdsn` → `dmsn`, `msdn`, `mdns`). */
export function transpositions(term: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < term.length; i++) {
    if (term[i] === term[i + 1]) continue;
    out.push(term.slice(0, i) + term[i + 1] + term[i] + term.slice(i + 2));
  }
  return out;
}

/** How a query term matches a document term: length of the highlighted part, or 0. */
export function matchLength(queryTerm: string, docTerm: string, prefix: boolean, typoTerms?: TypoTerms): number {
  if (docTerm === queryTerm) return docTerm.length;
  if (prefix && queryTerm.length >= 1 && docTerm.startsWith(queryTerm)) return queryTerm.length;
  // another form of the word (`tokens` for `token`): a query word of 4 letters or more, and a word
  // of the text of 3 or more (`adding` finds `add`; `get` does not find `getting`)
  if (docTerm.length >= 3 && queryTerm.length >= 4 && docTerm[0] === queryTerm[0] && stem(docTerm) === stem(queryTerm)) return docTerm.length;
  if (typoTerms) return typoTerms.get(queryTerm)?.has(docTerm) ? docTerm.length : 0;
  const typos = typosAllowed(queryTerm);
  if (typos > 0 && editDistanceWithin(queryTerm, docTerm, typos)) return docTerm.length;
  if (prefix && typos > 0 && docTerm.length > queryTerm.length) {
    // a typo inside a prefix being typed: `measurment` → `measurements`
    if (editDistanceWithin(queryTerm, docTerm.slice(0, queryTerm.length), 1)) return queryTerm.length;
  }
  return 0;
}

/**
 * The words of the index each query word matched with typos (from the engine's lookup); when
 * given, the matcher forgives exactly those typos instead of comparing every word it meets.
 */
export type TypoTerms = ReadonlyMap<string, ReadonlySet<string>>;

const VOWEL = /[aeiouy]/;

/**
 * A light English stemmer for plain words of letters only (never identifiers, paths or numbers,
 * which stay exact): plural `-s`/`-es`/`-ies`, then `-ing`/`-ed` with a final `-e` dropped, so
 * `batteries`/`battery`, `creating`/`create`/`created` and `polling`/`poll` meet. `light: 's'`
 * stops after the plural (the S-stemmer), for measuring one against the other.
 */
export function stem(word: string, light: 's' | 'ing' = 'ing'): string {
  if (word.length < 4) return word;
  return light === 'ing' ? remembered(stems, STEMS_KEPT, word, () => stemUncached(word, light)) : stemUncached(word, light);
}

/**
 * The value kept for `key` in `cache`, made by `make` on first use. A cache holds at most `limit`
 * values: when full it is emptied (what a reader types next is what matters, not what came first).
 */
export function remembered<K, V>(cache: Map<K, V>, limit: number, key: K, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= limit) cache.clear();
    cache.set(key, (value = make()));
  }
  return value;
}

/**
 * Stems of the words met so far (a bounded cache): ranking, the record tests and highlighting
 * stem the same words query after query while a reader types, and stemming tests up to seven
 * regular expressions.
 */
const stems = new Map<string, string>();
const STEMS_KEPT = 20_000;

/** stem without the cache (for tests: the cached answer is this one). */
export function stemUncached(word: string, light: 's' | 'ing' = 'ing'): string {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4 && !/[ae]ies$/.test(w)) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (light === 's') return w;
  for (const suffix of ['ing', 'ed']) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, -suffix.length);
    if (base.length >= 3 && VOWEL.test(base)) {
      // `polling` → `poll`, but `running` → `run`: undouble a final doubled consonant except l, s,
      // z, and not in a stem of three letters (`adding` → `add`)
      w = /([^aeiouylsz])\1$/.test(base) && base.length > 3 ? base.slice(0, -1) : base;
    }
    break;
  }
  // a noun in -ion meets its verb: `connection`/`connecting`, `selection`/`selected` (not -ation)
  if (/[^aeiou]ion$/.test(w) && !w.endsWith('ation')) {
    const base = w.slice(0, -3);
    if (base.length >= 4 && VOWEL.test(base)) w = base;
  }
  if (w.length > 3 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
  if (w.endsWith('y') && w.length > 3) w = `${w.slice(0, -1)}i`;
  return w;
}

/** The part of a word its other forms share, for finding them in text (`batteri` → `batter`). */
export function stemRoot(word: string): string {
  const s = stem(word);
  return s !== word && s.endsWith('i') ? s.slice(0, -1) : s;
}
