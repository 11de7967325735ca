/**
 * The local search engine: one tokenizer, one ranking and one Algolia-shaped response builder,
 * shared by the index builder (Node), the browser's local search client and the CLI `search`
 * command. Runs in Node and in the browser: no `node:` imports and no runtime import of the zod
 * schema here (only MiniSearch's radix tree), so the browser bundle stays small.
 *
 * Record text is HTML-escaped once by the extractor. The engine tokenizes the decoded text but
 * highlights the escaped text in place: it only ever inserts the highlight tags between
 * characters of the escaped record text, never query text, and never inside an entity.
 */
import SearchableMap from 'minisearch/SearchableMap';

export const LOCAL_INDEX_FORMAT = 2;
export const LEVEL_KEYS = ['lvl0', 'lvl1', 'lvl2', 'lvl3', 'lvl4', 'lvl5', 'lvl6'] as const;
export type LevelKey = (typeof LEVEL_KEYS)[number];
const TYPES = [...LEVEL_KEYS, 'content'] as const;
export type EngineRecordType = (typeof TYPES)[number];

/** The fields of a search record (docs-indexer/records) the engine reads and returns. */
export interface EngineRecord {
  objectID: string;
  url: string;
  url_without_anchor: string;
  anchor: string | null;
  type: EngineRecordType;
  hierarchy: Record<LevelKey, string | null>;
  content: string | null;
  weight: {pageRank: number; level: number; position: number};
  language: string;
  docusaurus_tag: string;
  version?: string;
}

/** The local index file written into the build (search/local-index.json); see packRecords. */
export interface LocalIndexFile {
  format: typeof LOCAL_INDEX_FORMAT;
  engine: 'minisearch';
  /** Origin prefix removed from every record URL (e.g. https://example.org). */
  origin: string;
  /** Pages in order, each with its record count. */
  pages: PackedPage[];
  /** One character per record: its type (`0`..`6` for lvl0..lvl6, `c` for content). */
  types: string;
  /** Each record's own text (its heading, or its content), in order. */
  texts: (string | null)[];
  /** [record index, fields] for records that differ from what their place predicts. */
  exceptions: [number, RecordOverride][];
}

// ---------------------------------------------------------------------------------------------
// Text: entities and tokens

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
const WORD = /[\p{L}\p{N}_]+(?:[-:./@][\p{L}\p{N}_]+)*/gu;
/** A tail of an identifier starts after one of these (`api-version`, `power_w`, `_tcp.local`). */
const TAIL_START = /[-:./@_]/;

const ASCII = /^[ -~]*$/;
const SPACE = /\s/;

export function normalizeTerm(term: string): string {
  if (ASCII.test(term)) return term.toLowerCase();
  return term.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A plain word (one piece only): lowercase letters or digits. The common case, kept fast. */
const PLAIN = /^(?:[a-z]+|[0-9]+|[A-Z][a-z]*)$/;

interface Piece {
  /** Normalized text of the piece. */
  term: string;
  start: number;
  end: number;
}

/**
 * The searchable pieces of one word: the whole word, every tail that starts after a separator
 * or `_` (`api-version` in `x-api-version`, `power_w` in `active_power_w`), and its parts split at separators, `_` and camelCase.
 */
function wordPieces(word: string, offset: number): Piece[] {
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

/** tokenizeForIndex(text, 'whole') and (text, 'parts') in one pass. */
export function tokenizeWholeAndParts(text: string): [string[], string[]] {
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
    const pieces = wordPieces(w, 0);
    whole.push(pieces[0]!.term);
    for (let i = 1; i < pieces.length; i++) parts.push(pieces[i]!.term);
  }
  return [whole, parts];
}

/** Query tokenizer: whole words only, so `active_power_w` asks for the identifier itself. */
export function tokenizeQuery(query: string): string[] {
  return Array.from(query.matchAll(WORD), (m) => normalizeTerm(m[0]));
}

// ---------------------------------------------------------------------------------------------
// Matching rules (shared by ranking and highlighting)

/** Typos forgiven: none under 4 characters, 1 from 4, 2 from 8 (Algolia's defaults). */
export function typosAllowed(term: string): number {
  return term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0;
}

function editDistanceWithin(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({length: b.length + 1}, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return false;
    prev = cur;
  }
  return prev[b.length]! <= max;
}

/** How a query term matches a document term: length of the highlighted part, or 0. */
function matchLength(queryTerm: string, docTerm: string, prefix: boolean, typoTerms?: TypoTerms): number {
  if (docTerm === queryTerm) return docTerm.length;
  if (prefix && queryTerm.length >= 1 && docTerm.startsWith(queryTerm)) return queryTerm.length;
  if (typoTerms) return typoTerms.get(queryTerm)?.has(docTerm) ? docTerm.length : 0;
  const typos = typosAllowed(queryTerm);
  if (typos > 0 && editDistanceWithin(queryTerm, docTerm, typos)) return docTerm.length;
  if (prefix && typos > 0 && docTerm.length > queryTerm.length) {
    // a typo inside a prefix being typed: `measurment` → `measurements`
    if (editDistanceWithin(queryTerm, docTerm.slice(0, queryTerm.length), 1)) return queryTerm.length;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Highlight and snippet

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
/**
 * The words of the index each query word matched with typos (from the engine's lookup); when
 * given, the matcher forgives exactly those typos instead of comparing every word it meets.
 */
export type TypoTerms = ReadonlyMap<string, ReadonlySet<string>>;

export function createMatcher(terms: readonly string[], prefixLast: boolean, typoTerms?: TypoTerms): Matcher {
  const memo = new Map<string, {term: number; len: number}[]>();
  const none: {term: number; len: number}[] = [];
  return (piece) => {
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
  let tp = piecesCache.get(text);
  if (tp) return tp;
  tp = {terms: [], starts: [], ends: [], words: []};
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
  if (piecesCache.size >= PIECES_CACHED) piecesCache.clear();
  piecesCache.set(text, tp);
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

function level(found: Set<number>, terms: string[]): HighlightValue['matchLevel'] {
  if (found.size === 0) return 'none';
  return found.size === terms.length ? 'full' : 'partial';
}

function isSpaceAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && SPACE.test(text[i]!);
}

function nonSpaceLength(text: string): number {
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
    matchedWords: [...found].sort((a, b) => a - b).map((i) => opts.terms[i]!),
  };
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
    matchedWords: [...found].sort((a, b) => a - b).map((i) => opts.terms[i]!),
  };
}

// ---------------------------------------------------------------------------------------------
// Index file (format 2)
//
// Records of one page share their page, its lvl0 and meta attributes, and a heading's records
// share its hierarchy and anchor. The file stores each of those once and every record's own text
// once, in reading order (what gzip compresses best): a record is predicted from the one before
// it, and the rare record that differs from the prediction carries its differences.

/** Docusaurus's heading anchor for a heading text (github-slugger), used to predict URLs. */
export function headingSlug(text: string): string {
  return decodeEntities(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Fields a record may carry where it differs from its prediction. */
export interface RecordOverride {
  /** url path (origin removed) */
  u?: string;
  /** hierarchy, trailing nulls cut */
  h?: (string | null)[];
  /** content */
  c?: string | null;
  /** weight.level */
  l?: number;
  /** weight.position */
  p?: number;
  /** weight.pageRank */
  r?: number;
}

/** One page: [url path, lvl0, language, docusaurus_tag, version or null, pageRank, record count]. */
export type PackedPage = [string, string | null, string, string, string | null, number, number];

const TYPE_CODES = '0123456c';

function predict(
  page: PackedPage,
  prev: EngineRecord | null,
  type: EngineRecordType,
  text: string | null,
  origin: string,
): Omit<EngineRecord, 'objectID'> {
  const [path, lvl0, language, tag, version, pageRank] = page;
  const base: EngineRecord['hierarchy'] = prev ? prev.hierarchy : {lvl0, lvl1: null, lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null};
  const pageUrl = origin + path;
  let hierarchy = base;
  let url: string;
  let content: string | null = null;
  let level = 0;
  let position: number;
  if (type === 'content') {
    url = prev ? prev.url : pageUrl;
    content = text;
    position = prev ? prev.weight.position + 1 : 0;
  } else {
    const n = LEVEL_KEYS.indexOf(type);
    hierarchy = Object.fromEntries(LEVEL_KEYS.map((k, i) => [k, i < n ? base[k] : i === n ? text : null])) as EngineRecord['hierarchy'];
    url = n <= 1 ? pageUrl : `${pageUrl}#${headingSlug(text ?? '')}`;
    level = 100 - 10 * n;
    position = 0;
  }
  const hash = url.indexOf('#');
  const record: Omit<EngineRecord, 'objectID'> = {
    url,
    url_without_anchor: hash < 0 ? url : url.slice(0, hash),
    anchor: hash < 0 ? null : url.slice(hash + 1),
    type,
    hierarchy,
    content,
    weight: {pageRank, level, position},
    language,
    docusaurus_tag: tag,
  };
  if (version !== null) record.version = version;
  return record;
}

function applyOverride(r: Omit<EngineRecord, 'objectID'>, o: RecordOverride, origin: string): void {
  if (o.u !== undefined) {
    r.url = /^[a-z]+:/i.test(o.u) ? o.u : origin + o.u;
    const hash = r.url.indexOf('#');
    r.url_without_anchor = hash < 0 ? r.url : r.url.slice(0, hash);
    r.anchor = hash < 0 ? null : r.url.slice(hash + 1);
  }
  if (o.h !== undefined) r.hierarchy = Object.fromEntries(LEVEL_KEYS.map((k, j) => [k, o.h![j] ?? null])) as EngineRecord['hierarchy'];
  if (o.c !== undefined) r.content = o.c;
  if (o.l !== undefined || o.p !== undefined || o.r !== undefined) {
    r.weight = {pageRank: o.r ?? r.weight.pageRank, level: o.l ?? r.weight.level, position: o.p ?? r.weight.position};
  }
}

/**
 * Local objectIDs: 16 hex characters of a hash of what object-id.ts hashes (the record's
 * section, type, own text and rank among identical siblings), so they stay stable when other
 * records change. They are not the Algolia objectIDs (the file does not carry those: random
 * hex is a third of a compressed index); they only key recent and favourite searches.
 */
function localObjectId(url: string, type: string, text: string, occurrence: number): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ (url.length + text.length);
  const feed = (part: string) => {
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h1 = Math.imul(h1, 0x01000193);
    h2 = Math.imul(h2 ^ 0xff, 0x5bd1e995);
  };
  feed(url);
  feed(type);
  feed(String(occurrence));
  feed(text);
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b);
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  return (h1 >>> 0).toString(16).padStart(8, '0') + ((h2 ^ (h2 >>> 16)) >>> 0).toString(16).padStart(8, '0');
}

const ownText = (r: Pick<EngineRecord, 'type' | 'hierarchy' | 'content'>): string | null =>
  r.type === 'content' ? r.content : r.hierarchy[r.type];

export function packRecords(records: readonly EngineRecord[], origin: string): LocalIndexFile {
  const strip = (url: string) => (origin && url.startsWith(origin) ? url.slice(origin.length) : url);
  const pages: PackedPage[] = [];
  let types = '';
  const texts: (string | null)[] = [];
  const exceptions: [number, RecordOverride][] = [];
  let page: PackedPage | null = null;
  let prev: EngineRecord | null = null;
  records.forEach((r, i) => {
    if (
      !page ||
      prev!.url_without_anchor !== r.url_without_anchor ||
      page[2] !== r.language ||
      page[3] !== r.docusaurus_tag ||
      page[4] !== (r.version ?? null) ||
      page[5] !== r.weight.pageRank
    ) {
      page = [strip(r.url_without_anchor), r.hierarchy.lvl0, r.language, r.docusaurus_tag, r.version ?? null, r.weight.pageRank, 0];
      pages.push(page);
      prev = null;
    }
    page[6] += 1;
    types += TYPE_CODES[TYPES.indexOf(r.type)] ?? 'c';
    const text = ownText(r);
    texts.push(text);
    const p = predict(page, prev, r.type, text, origin);
    const o: RecordOverride = {};
    if (p.url !== r.url) o.u = strip(r.url);
    if (LEVEL_KEYS.some((k) => p.hierarchy[k] !== r.hierarchy[k])) {
      const levels: (string | null)[] = LEVEL_KEYS.map((k) => r.hierarchy[k]);
      while (levels.length > 1 && levels[levels.length - 1] === null) levels.pop();
      o.h = levels;
    }
    if (p.content !== r.content) o.c = r.content;
    if (p.weight.level !== r.weight.level) o.l = r.weight.level;
    if (p.weight.position !== r.weight.position) o.p = r.weight.position;
    if (Object.keys(o).length > 0) exceptions.push([i, o]);
    prev = r;
  });
  return {format: LOCAL_INDEX_FORMAT, engine: 'minisearch', origin, pages, types, texts, exceptions};
}

export class LocalIndexError extends Error {
  override name = 'LocalIndexError';
}

export function unpackRecords(file: unknown): EngineRecord[] {
  const f = file as Partial<LocalIndexFile> | null;
  if (
    !f ||
    typeof f !== 'object' ||
    f.format !== LOCAL_INDEX_FORMAT ||
    typeof f.origin !== 'string' ||
    !Array.isArray(f.pages) ||
    typeof f.types !== 'string' ||
    !Array.isArray(f.texts) ||
    !Array.isArray(f.exceptions) ||
    f.types.length !== f.texts.length
  ) {
    throw new LocalIndexError(`not a local search index (format ${LOCAL_INDEX_FORMAT} expected)`);
  }
  const {origin, types, texts} = f;
  const overrides = new Map<number, RecordOverride>();
  for (const e of f.exceptions) {
    if (!Array.isArray(e) || typeof e[0] !== 'number' || !e[1] || typeof e[1] !== 'object') {
      throw new LocalIndexError('not a local search index (malformed exception list)');
    }
    overrides.set(e[0], e[1]);
  }
  const out: EngineRecord[] = [];
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  let i = 0;
  for (const [n, page] of f.pages.entries()) {
    if (!Array.isArray(page) || typeof page[0] !== 'string' || typeof page[6] !== 'number') {
      throw new LocalIndexError(`not a local search index (page ${n} is malformed)`);
    }
    let prev: EngineRecord | null = null;
    for (let k = 0; k < page[6]; k++, i++) {
      const code = TYPE_CODES.indexOf(types[i] ?? '');
      if (code < 0) throw new LocalIndexError(`not a local search index (record ${i} is malformed)`);
      const type = TYPES[code]!;
      const text = texts[i] ?? null;
      const r = predict(page, prev, type, text, origin);
      const o = overrides.get(i);
      if (o) applyOverride(r, o, origin);
      // Identical siblings (same section, type and text) are told apart by their rank.
      const text0 = ownText(r) ?? '';
      let objectID = localObjectId(r.url, type, text0, 0);
      const key = `${r.url}\u0000${type}\u0000${objectID}`;
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      if (occurrence > 0) objectID = localObjectId(r.url, type, text0, occurrence);
      while (ids.has(objectID)) objectID = localObjectId(r.url, type, `${text0}\u0000${objectID}`, occurrence);
      ids.add(objectID);
      const record = {objectID, ...r} as EngineRecord;
      out.push(record);
      prev = record;
    }
  }
  if (i !== types.length) throw new LocalIndexError('not a local search index (record count mismatch)');
  return out;
}

// ---------------------------------------------------------------------------------------------
// Search
//
// Hits are distinct by URL, so the engine indexes one document per URL (a section: a heading and
// the paragraphs under it) and picks the record to show only for the hits returned. Terms live
// in MiniSearch's radix tree (prefix and typo lookups); each term's postings are typed arrays
// with their BM25 weight computed at load, so a query only adds numbers.

/**
 * Common English words are not indexed in body text (they still are in titles and headings):
 * they match almost every paragraph, cost the most to score and never decide a hit.
 */
export const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have if in into is it its of on or so such than that the their them then there these they this to was were which will with you your'.split(' '),
);

/** Fields of a section: its hierarchy lvl0..lvl6, its prose (7) and its code samples (8). */
const PROSE = 7;
const CODE = 8;
const WHOLE_FIELDS = 9;
/** Field boosts: page titles and headings rank above body text, prose above code samples. */
const WHOLE_BOOST = [1, 6, 4, 3, 2, 2, 2, 1, 0.5];
/**
 * Each text is indexed twice: whole words in field f, and the parts and tails of identifiers in
 * f + 9 (`brightness` in `status_led_brightness_pct`), which count for less than a whole word.
 */
const PART_WEIGHT = 0.4;
const FIELD_BOOST = [...WHOLE_BOOST, ...WHOLE_BOOST.map((b) => b * PART_WEIGHT)];
const FIELD_COUNT = FIELD_BOOST.length;
const isHeadingField = (f: number) => f % WHOLE_FIELDS >= 1 && f % WHOLE_FIELDS <= 6;
const isBodyField = (f: number) => f % WHOLE_FIELDS >= PROSE;

/** BM25+ (MiniSearch's defaults). */
const BM25 = {k: 1.2, b: 0.7, d: 0.5};
const TYPO_WEIGHT = 0.3;
/** Score of a completion relative to an exact match of the typed word. */
const PREFIX_WEIGHT = 0.6;
const FUZZY_WEIGHT = 0.35;
/** Fewer hits than this without typos: try again forgiving typos. */
const FUZZY_BELOW = 5;
/** Candidates that get the phrase check (a regex over their text). */
const PHRASE_CHECKED = 100;
/** Words found only in different paragraphs of a section count for less than in one. */
const SPREAD_WEIGHT = 0.25;

export interface RankedHit {
  /** Index of the record shown for this hit. */
  readonly index: number;
  readonly record: EngineRecord;
  readonly score: number;
}

export type FacetFilters = (string | string[])[];

/** Parses `attr:value` / `-attr:value`. */
function parseFilter(f: string): {attr: string; value: string; negate: boolean} {
  const negate = f.startsWith('-');
  const body = negate ? f.slice(1) : f;
  const colon = body.indexOf(':');
  return {attr: body.slice(0, colon).trim(), value: body.slice(colon + 1).trim().replace(/^"(.*)"$/, '$1'), negate};
}

export function facetValue(r: EngineRecord, attr: string): string | undefined {
  switch (attr) {
    case 'language':
    case 'lang':
      return r.language;
    case 'docusaurus_tag':
      return r.docusaurus_tag;
    case 'version':
      return r.version;
    case 'type':
      return r.type;
    default:
      return undefined;
  }
}

/** Compiles Algolia facetFilters (AND of items, OR inside nested lists) into a predicate. */
export function compileFacetFilters(filters: FacetFilters | undefined): (r: EngineRecord) => boolean {
  if (!filters || filters.length === 0) return () => true;
  const one = (f: string) => {
    const {attr, value, negate} = parseFilter(f);
    return (r: EngineRecord) => (facetValue(r, attr) === value) !== negate;
  };
  const groups = filters.map((f) => (Array.isArray(f) ? f.map(one) : [one(f)])).filter((g) => g.length > 0);
  return (r) => groups.every((g) => g.some((test) => test(r)));
}

export function matchesFacetFilters(r: EngineRecord, filters: FacetFilters | undefined): boolean {
  return compileFacetFilters(filters)(r);
}

/** A request, JSON or shell sample rather than prose: many symbols per letter. */
export function looksLikeCode(text: string): boolean {
  const t = decodeEntities(text);
  const symbols = t.match(/[{}[\]"=\\$;<>|]/g)?.length ?? 0;
  return symbols / Math.max(1, t.length) > 0.04 || /\bHTTP\/1\.1\b|^(?:curl|GET|PUT|POST|DELETE) /.test(t);
}

/** How many completions a prefix being typed expands to (Algolia also bounds prefix matches). */
function completionLimit(prefix: string): number {
  return prefix.length <= 1 ? 10 : prefix.length === 2 ? 12 : prefix.length === 3 ? 30 : 60;
}

/** One term's postings: section × field, and the BM25 weight of the term there. */
interface Postings {
  /** section * FIELD_COUNT + field */
  at: Int32Array;
  weight: Float32Array;
  /** Sections that contain the term (document frequency). */
  df: number;
  /** Postings before this index are in page titles and headings (lvl1..lvl6), the rest in lvl0 or body text. */
  headingEnd: number;
}

interface Expansion {
  id: number;
  /** The index word (for typo matches only). */
  term?: string;
  weight: number;
  /** Matched without a typo (the word itself, or a completion of the word being typed). */
  exact: boolean;
}

export class LocalSearchEngine {
  readonly records: EngineRecord[];
  /** Per section: its records (record indices, in order). */
  private readonly members: number[][] = [];
  /** Per section: the record that stands for it (its heading, else its first record). */
  private readonly lead: Int32Array;
  private readonly pageOf: Int32Array;
  private readonly pageCount: number;
  /** MiniSearch's radix tree: term → term id. */
  private readonly terms: SearchableMap<number>;
  private readonly postings: Postings[] = [];
  private readonly completionCache = new Map<string, number[]>();
  private readonly filterCache = new Map<string, Uint8Array>();
  /** Rankings of the empty query per filter (never changed once made). */
  private readonly emptyCache = new Map<string, Scored[]>();
  private readonly plain: (string | undefined)[] = [];
  // Per-query scratch space, one slot per section (reset after each query).
  private readonly acc: Float64Array;
  private readonly matched: Uint32Array;
  private readonly inHeading: Uint32Array;
  private readonly exact: Uint32Array;
  private readonly touched: Int32Array;
  private readonly perPage: Uint16Array;

  constructor(records: EngineRecord[]) {
    this.records = records;
    const sectionOf = new Map<string, number>();
    const pageIds = new Map<string, number>();
    const pageOf: number[] = [];
    records.forEach((r, i) => {
      let s = sectionOf.get(r.url);
      if (s === undefined) {
        s = this.members.length;
        sectionOf.set(r.url, s);
        this.members.push([]);
        let p = pageIds.get(r.url_without_anchor);
        if (p === undefined) pageIds.set(r.url_without_anchor, (p = pageIds.size));
        pageOf.push(p);
      }
      this.members[s]!.push(i);
    });
    const n = this.members.length;
    this.pageCount = pageIds.size;
    this.pageOf = Int32Array.from(pageOf);
    this.lead = Int32Array.from(this.members, (m) => m.find((i) => records[i]!.type !== 'content') ?? m[0]!);

    // Tokenize every section's fields; count terms per (section, field).
    const ids = new Map<string, number>();
    const raw: number[][] = [];
    const lengths = new Float64Array(n * FIELD_COUNT);
    const totals = new Float64Array(FIELD_COUNT);
    const counts = new Map<number, number>();
    for (let s = 0; s < n; s++) {
      const lead = records[this.lead[s]!]!;
      const texts: string[][] = Array.from({length: WHOLE_FIELDS}, () => []);
      LEVEL_KEYS.forEach((k, f) => {
        const v = lead.hierarchy[k];
        if (v !== null) texts[f]!.push(v);
      });
      for (const i of this.members[s]!) {
        const c = records[i]!.content;
        if (c !== null) texts[looksLikeCode(c) ? CODE : PROSE]!.push(c);
      }
      for (let f = 0; f < WHOLE_FIELDS; f++) {
        if (texts[f]!.length === 0) continue;
        const text = texts[f]!.join(' ');
        const [whole, parts] = tokenizeWholeAndParts(text);
        for (const [tokens, field] of [[whole, f], [parts, f + WHOLE_FIELDS]] as const) {
          counts.clear();
          let len = 0;
          for (const term of tokens) {
            if (isBodyField(field) && STOP_WORDS.has(term)) continue;
            len++;
            let id = ids.get(term);
            if (id === undefined) {
              ids.set(term, (id = raw.length));
              raw.push([]);
            }
            counts.set(id, (counts.get(id) ?? 0) + 1);
          }
          lengths[s * FIELD_COUNT + field] = len;
          totals[field]! += len;
          for (const [id, tf] of counts) raw[id]!.push(s * FIELD_COUNT + field, tf);
        }
      }
    }
    const avg = Array.from(totals, (t) => Math.max(1, t / Math.max(1, n)));
    const fieldDf = new Int32Array(FIELD_COUNT);
    for (const list of raw) {
      const m = list.length / 2;
      const at = new Int32Array(m);
      const weight = new Float32Array(m);
      let df = 0;
      let last = -1;
      fieldDf.fill(0);
      for (let j = 0; j < m; j++) {
        const key = list[2 * j]!;
        const s = Math.floor(key / FIELD_COUNT);
        fieldDf[key - s * FIELD_COUNT]! += 1;
        if (s !== last) {
          df++;
          last = s;
        }
      }
      // Title and heading postings first, lvl0 and body text after (a one-letter query reads only
      // the first).
      let k = 0;
      let headingEnd = 0;
      for (const heading of [true, false]) {
        if (!heading) headingEnd = k;
        for (let j = 0; j < m; j++) {
          const key = list[2 * j]!;
          const tf = list[2 * j + 1]!;
          const field = key % FIELD_COUNT;
          if (isHeadingField(field) !== heading) continue;
          const len = lengths[key]!;
          // As MiniSearch: a word's rarity is counted per field (rare in titles, common in text).
          const fdf = fieldDf[field]!;
          const idf = Math.log(1 + (n - fdf + 0.5) / (fdf + 0.5));
          at[k] = key;
          weight[k] = FIELD_BOOST[field]! * idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * len) / avg[field]!)));
          k++;
        }
      }
      this.postings.push({at, weight, df, headingEnd});
    }
    this.terms = new SearchableMap<number>();
    for (const [term, id] of ids) this.terms.set(term, id);
    this.acc = new Float64Array(n);
    this.matched = new Uint32Array(n);
    this.inHeading = new Uint32Array(n);
    this.exact = new Uint32Array(n);
    this.touched = new Int32Array(n);
    this.perPage = new Uint16Array(this.pageCount);
  }

  static fromIndexFile(file: unknown): LocalSearchEngine {
    return new LocalSearchEngine(unpackRecords(file));
  }

  /** The most frequent completions of a prefix (term ids), without the prefix itself. */
  private completions(prefix: string): number[] {
    const cached = this.completionCache.get(prefix);
    if (cached) return cached;
    const found: {id: number; df: number; len: number}[] = [];
    for (const [term, id] of this.terms.atPrefix(prefix)) {
      if (term !== prefix) found.push({id, df: this.postings[id]!.df, len: term.length});
    }
    found.sort((a, b) => b.df - a.df || a.len - b.len);
    const out = found.slice(0, completionLimit(prefix)).map((f) => f.id);
    if (this.completionCache.size > 500) this.completionCache.clear();
    this.completionCache.set(prefix, out);
    return out;
  }

  private expansions(term: string, prefix: boolean, fuzzy: boolean): Expansion[] {
    const out: Expansion[] = [];
    const exact = this.terms.get(term);
    if (exact !== undefined) out.push({id: exact, weight: 1, exact: true});
    if (prefix) {
      for (const id of this.completions(term)) out.push({id, weight: PREFIX_WEIGHT, exact: true});
    }
    const typos = typosAllowed(term);
    if (fuzzy && typos > 0) {
      const seen = new Set(out.map((e) => e.id));
      for (const [word, [id, distance]] of this.terms.fuzzyGet(term, typos)) {
        if (!seen.has(id)) out.push({id, term: word, weight: (FUZZY_WEIGHT * term.length) / (term.length + distance), exact: false});
      }
    }
    return out;
  }

  private passes(filters: FacetFilters | undefined): Uint8Array | undefined {
    if (!filters || filters.length === 0) return undefined;
    const key = JSON.stringify(filters);
    let pass = this.filterCache.get(key);
    if (!pass) {
      const keep = compileFacetFilters(filters);
      pass = Uint8Array.from(this.lead, (i) => (keep(this.records[i]!) ? 1 : 0));
      if (this.filterCache.size > 50) this.filterCache.clear();
      this.filterCache.set(key, pass);
    }
    return pass;
  }

  /** Adds every query term's postings into the scratch arrays; returns how many sections were touched. */
  private accumulate(terms: string[], prefixLast: boolean, fuzzy: boolean, pass: Uint8Array | undefined, typoTerms: Map<string, Set<string>>): number {
    let touched = 0;
    const last = terms.length - 1;
    for (let t = 0; t < terms.length; t++) {
      const bit = 1 << t;
      const prefix = prefixLast && t === last;
      // One typed letter is too little to read paragraphs (or the lvl0 every page of a
      // category shares) for: it matches page titles and headings.
      const headingsOnly = prefix && terms[t]!.length <= 1;
      for (const e of this.expansions(terms[t]!, prefix, fuzzy)) {
        if (e.term !== undefined) {
          const set = typoTerms.get(terms[t]!) ?? new Set<string>();
          typoTerms.set(terms[t]!, set.add(e.term));
        }
        const {at, weight, headingEnd} = this.postings[e.id]!;
        const end = headingsOnly ? headingEnd : at.length;
        for (let j = 0; j < end; j++) {
          const key = at[j]!;
          const s = (key / FIELD_COUNT) | 0;
          const field = key - s * FIELD_COUNT;
          if (pass && pass[s] === 0) continue;
          if (this.matched[s] === 0) this.touched[touched++] = s;
          this.acc[s]! += e.weight * weight[j]!;
          this.matched[s]! |= bit;
          if (e.exact) this.exact[s]! |= bit;
          if (isHeadingField(field)) this.inHeading[s]! |= bit;
        }
      }
    }
    return touched;
  }

  private reset(touched: number): void {
    for (let j = 0; j < touched; j++) {
      const s = this.touched[j]!;
      this.acc[s] = 0;
      this.matched[s] = 0;
      this.inHeading[s] = 0;
      this.exact[s] = 0;
    }
  }

  private phraseIn(section: number, phrase: RegExp): boolean {
    const lead = this.lead[section]!;
    if (this.records[lead]!.type !== 'content' && phrase.test(this.plainText(lead))) return true;
    return this.members[section]!.some((i) => this.records[i]!.type === 'content' && phrase.test(this.plainText(i)));
  }

  private compare = (a: {section: number; score: number}, b: {section: number; score: number}): number => {
    if (b.score !== a.score) return b.score - a.score;
    const ra = this.records[this.lead[a.section]!]!;
    const rb = this.records[this.lead[b.section]!]!;
    return (
      rb.weight.pageRank - ra.weight.pageRank ||
      rb.weight.level - ra.weight.level ||
      ra.weight.position - rb.weight.position ||
      this.lead[a.section]! - this.lead[b.section]!
    );
  };

  /**
   * Ranked sections (one hit per URL) for a query, best first: the first `need` in order, and
   * how many match. The last word matches as a prefix unless followed by a space.
   */
  search(
    query: string,
    facetFilters?: FacetFilters,
    need = Infinity,
  ): {total: number; hits: RankedHit[]; sections: () => number[]; typoTerms: TypoTerms} {
    const prefixLast = !/\s$/.test(query);
    const pass = this.passes(facetFilters);
    const all = tokenizeQuery(query).slice(0, 30);
    // Stop words are dropped from the query, except a last word still being typed.
    const kept = all.filter((t, i) => !STOP_WORDS.has(t) || (prefixLast && i === all.length - 1));
    const terms = kept.length > 0 ? kept : all;
    let ranked: Scored[];
    let others: Int32Array = new Int32Array(0);
    let typoTerms: TypoTerms = new Map();
    if (terms.length === 0) {
      // No word: every section, in the index's own order of importance (the same every time).
      const key = JSON.stringify(facetFilters ?? []);
      let order = this.emptyCache.get(key);
      if (!order) {
        order = [] as Scored[];
        for (let s = 0; s < this.members.length; s++) if (!pass || pass[s] === 1) order.push({section: s, score: 0});
        order.sort(this.compare);
        if (this.emptyCache.size > 50) this.emptyCache.clear();
        this.emptyCache.set(key, order);
      }
      ranked = order;
    } else {
      const exact = this.scoreTerms(terms, prefixLast, pass, need, false);
      ({ranked, others} = exact);
      const count = (r: {ranked: Scored[]; others: Int32Array}) => r.ranked.length + r.others.length;
      // Typos are forgiven only when the words as typed find too little (Algolia ranks typo
      // matches below exact ones anyway): looking them up costs more than the rest.
      if ((!exact.all || count(exact) < FUZZY_BELOW) && terms.some((t) => typosAllowed(t) > 0)) {
        const forgiving = this.scoreTerms(terms, prefixLast, pass, need, true);
        if ((forgiving.all && !exact.all) || (forgiving.all === exact.all && count(forgiving) > count(exact))) {
          ({ranked, others, typoTerms} = forgiving);
        }
      }
    }
    const top = ranked.slice(0, need);
    const hits = top.map(({section, score}) => this.hitFor(section, score, terms, typoTerms));
    const rest = others;
    return {
      total: ranked.length + rest.length,
      hits,
      sections: () => [...ranked.map((r) => r.section), ...rest],
      typoTerms,
    };
  }

  /** Scores the sections that match every term (or, if none does, any term), best first. */
  private scoreTerms(
    terms: string[],
    prefixLast: boolean,
    pass: Uint8Array | undefined,
    need: number,
    fuzzy: boolean,
  ): {all: boolean; ranked: Scored[]; others: Int32Array; typoTerms: Map<string, Set<string>>} {
    const typoTerms = new Map<string, Set<string>>();
    const touched = this.accumulate(terms, prefixLast, fuzzy, pass, typoTerms);
    try {
      const all = (1 << terms.length) - 1;
      let required = all;
      let any = false;
      for (let j = 0; j < touched && !any; j++) any = this.matched[this.touched[j]!] === all;
      if (!any) required = 0; // OR: any word may match
      const perPage = this.perPage;
      const sections = new Int32Array(touched);
      let n = 0;
      for (let j = 0; j < touched; j++) {
        const s = this.touched[j]!;
        if (required === 0 || this.matched[s] === required) {
          sections[n++] = s;
          perPage[this.pageOf[s]!]! += 1;
        }
      }
      const scores = new Float64Array(n);
      for (let j = 0; j < n; j++) {
        const s = sections[j]!;
        const matched = this.matched[s]!;
        let score = this.acc[s]! * popcount(matched);
        // Like Algolia's first criterion: a match without typos beats one that needs them.
        score *= TYPO_WEIGHT ** popcount(matched & ~this.exact[s]!);
        const lead = this.records[this.lead[s]!]!;
        if ((this.inHeading[s]! & matched) === matched) {
          // Every word is in a title or heading: the heading itself is the hit.
          score *= 2 * (1 + lead.weight.level / 200);
        }
        score *= 1 + 0.25 * Math.log(perPage[this.pageOf[s]!]!);
        score *= 1 + Math.max(0, lead.weight.pageRank) / 100;
        scores[j] = score;
      }
      for (let j = 0; j < n; j++) perPage[this.pageOf[sections[j]!]!] = 0;
      // Only the best are put in order (and read, below); the rest are only counted.
      const read = Math.max(PHRASE_CHECKED, Number.isFinite(need) ? need : 0);
      const wanted = Number.isFinite(need) ? read : n;
      const threshold = n > 2 * wanted ? kthLargest(scores, wanted) : -Infinity;
      let ranked: Scored[] = [];
      const others = new Int32Array(n);
      const otherScores = new Float64Array(n);
      let o = 0;
      for (let j = 0; j < n; j++) {
        if (scores[j]! >= threshold) ranked.push({section: sections[j]!, score: scores[j]!});
        else {
          otherScores[o] = scores[j]!;
          others[o++] = sections[j]!;
        }
      }
      ranked.sort(this.compare);
      if (terms.length > 1) {
        // Only the best candidates are read: are the words together in one record (a heading, or
        // a paragraph under its headings), and do they form a phrase?
        const phrase = new RegExp(terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s_:./-]+') + (prefixLast ? '' : '\\b'), 'u');
        const checked = ranked.slice(0, read);
        const spread = new Set<Scored>();
        for (const r of checked) {
          if (this.matched[r.section] !== all) continue;
          if (this.bestRecord(r.section, terms, typoTerms).words < terms.length) spread.add(r);
          else if (this.phraseIn(r.section, phrase)) r.score *= 1.5;
        }
        // Like per-paragraph records: a section whose words are only in different paragraphs
        // is no hit while others hold them together (and counts for less when none does).
        if (spread.size < checked.length) ranked = ranked.filter((r) => !spread.has(r));
        else for (const r of spread) r.score *= SPREAD_WEIGHT;
        ranked.sort(this.compare);
        if (ranked.length < need && o > 0) {
          // Spread sections left too few: the next best join, in order.
          const more = Array.from(others.subarray(0, o), (section, j) => ({section, score: otherScores[j]!}));
          ranked.push(...more.sort(this.compare));
          o = 0;
        }
      }
      return {all: any, ranked, others: others.subarray(0, o), typoTerms};
    } finally {
      this.reset(touched);
    }
  }

  /** Lowercased plain text of a record's heading (lvl1..) and content, kept once computed. */
  private plainText(i: number): string {
    let text = this.plain[i];
    if (text === undefined) {
      const r = this.records[i]!;
      const parts = r.type === 'content' ? [r.content] : LEVEL_KEYS.slice(1).map((k) => r.hierarchy[k]);
      text = normalizeTerm(decodeEntities(parts.filter((p) => p !== null).join(' ')));
      this.plain[i] = text;
    }
    return text;
  }

  /**
   * The record shown for a section: its heading if that holds every word, else the paragraph
   * that holds most of them with its headings (words found as substrings: a choice among a few
   * records, not a match), and how many words that record holds.
   */
  private bestRecord(section: number, terms: string[], typoTerms: TypoTerms): {index: number; words: number} {
    const lead = this.lead[section]!;
    if (terms.length === 0) return {index: lead, words: 0};
    const has = (text: string, t: string) => {
      if (text.includes(t)) return true;
      const typos = typoTerms.get(t);
      if (typos) for (const w of typos) if (text.includes(w)) return true;
      return false;
    };
    const count = (text: string, mask: number) => {
      for (let k = 0; k < terms.length; k++) if (!(mask & (1 << k)) && has(text, terms[k]!)) mask |= 1 << k;
      return mask;
    };
    const all = (1 << terms.length) - 1;
    const headMask = this.records[lead]!.type === 'content' ? 0 : count(this.plainText(lead), 0);
    let best = lead;
    let bestWords = popcount(headMask);
    if (headMask !== all) {
      for (const i of this.members[section]!) {
        if (this.records[i]!.type !== 'content') continue;
        const words = popcount(count(this.plainText(i), headMask));
        if (words > bestWords) {
          bestWords = words;
          best = i;
        }
        if (words === terms.length) break;
      }
    }
    return {index: best, words: bestWords};
  }

  private hitFor(section: number, score: number, terms: string[], typoTerms: TypoTerms): RankedHit {
    const {index} = this.bestRecord(section, terms, typoTerms);
    return {index, record: this.records[index]!, score};
  }

  /** Ranked, distinct by URL, filtered. The last word matches as a prefix unless followed by a space. */
  rank(query: string, facetFilters?: FacetFilters): RankedHit[] {
    return this.search(query, facetFilters).hits;
  }

  /** The record standing for a section (facet counts). */
  leadRecord(section: number): EngineRecord {
    return this.records[this.lead[section]!]!;
  }
}

interface Scored {
  section: number;
  score: number;
}

/** The k-th largest value (quickselect on a copy). */
function kthLargest(values: Float64Array, k: number): number {
  const a = Float64Array.from(values);
  let lo = 0;
  let hi = a.length - 1;
  const target = k - 1; // index in descending order
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! > pivot) i++;
      while (a[j]! < pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return a[target]!;
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Algolia-shaped answers

export const DEFAULT_HIGHLIGHT_PRE = '<span class="algolia-docsearch-suggestion--highlight">';
export const DEFAULT_HIGHLIGHT_POST = '</span>';
/** The index settings DocSearch's Docusaurus template sets: snippet content to 10 words. */
export const DEFAULT_ATTRIBUTES_TO_SNIPPET = ['content:10'];

export interface QueryParams {
  query?: string;
  page?: number;
  hitsPerPage?: number;
  attributesToRetrieve?: string[];
  attributesToSnippet?: string[];
  attributesToHighlight?: string[];
  highlightPreTag?: string;
  highlightPostTag?: string;
  snippetEllipsisText?: string;
  facetFilters?: FacetFilters | string;
  facets?: string[] | string;
  clickAnalytics?: boolean;
  [key: string]: unknown;
}

export interface AlgoliaHit extends Partial<EngineRecord> {
  objectID: string;
  _highlightResult?: Record<string, unknown>;
  _snippetResult?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface AlgoliaResponse {
  hits: AlgoliaHit[];
  nbHits: number;
  page: number;
  nbPages: number;
  hitsPerPage: number;
  exhaustiveNbHits: boolean;
  exhaustive: {nbHits: boolean; facetsCount?: boolean};
  exhaustiveFacetsCount?: boolean;
  facets?: Record<string, Record<string, number>>;
  query: string;
  params: string;
  index: string;
  processingTimeMS: number;
  queryID?: string;
  renderingContent: Record<string, never>;
}

const HIGHLIGHTABLE = [...LEVEL_KEYS.map((k) => `hierarchy.${k}`), 'content'];

function asList(v: string[] | string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v;
  const s = v.trim();
  if (s.startsWith('[')) {
    try {
      return JSON.parse(s) as string[];
    } catch {
      return [];
    }
  }
  return s === '' ? [] : s.split(',').map((x) => x.trim());
}

function normalizeFacetFilters(f: QueryParams['facetFilters']): FacetFilters | undefined {
  if (f === undefined) return undefined;
  if (typeof f === 'string') {
    const s = f.trim();
    if (s.startsWith('[')) return JSON.parse(s) as FacetFilters;
    return [s];
  }
  return f;
}

/** Expands `hierarchy` / `*` patterns of attribute lists; `content:10` → [content, 10]. */
function snippetSpec(list: string[], fallbackWords: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of list) {
    const colon = item.lastIndexOf(':');
    const name = colon >= 0 ? item.slice(0, colon) : item;
    const words = colon >= 0 ? Number(item.slice(colon + 1)) || fallbackWords : fallbackWords;
    for (const attr of HIGHLIGHTABLE) {
      if (name === '*' || attr === name || attr.startsWith(`${name}.`)) out.set(attr, words);
    }
  }
  return out;
}

function wanted(list: string[] | undefined, attr: string): boolean {
  if (!list) return true;
  return list.some((a) => a === '*' || a === attr || attr.startsWith(`${a}.`));
}

/** Answers one Algolia query (modal or /search page form) with Algolia's response shape. */
export function answerQuery(
  engine: LocalSearchEngine,
  indexName: string,
  params: QueryParams,
  defaults: {snippetWords?: number; now?: () => number} = {},
): AlgoliaResponse {
  const now = defaults.now ?? (() => Date.now());
  const started = now();
  const query = String(params.query ?? '').slice(0, 512);
  const hitsPerPage = Math.max(0, Math.min(1000, Number(params.hitsPerPage ?? 20)));
  const page = Math.max(0, Number(params.page ?? 0));
  const facetFilters = normalizeFacetFilters(params.facetFilters);
  const wantFacets = asList(params.facets);
  const {total, hits: ranked, sections, typoTerms} = engine.search(query, facetFilters, hitsPerPage > 0 ? (page + 1) * hitsPerPage : 0);
  const terms = tokenizeQuery(query);
  const prefixLast = !/\s$/.test(query);
  const hl: HighlightOptions = {
    terms,
    prefixLast,
    preTag: params.highlightPreTag ?? DEFAULT_HIGHLIGHT_PRE,
    postTag: params.highlightPostTag ?? DEFAULT_HIGHLIGHT_POST,
    matcher: createMatcher(terms, prefixLast, typoTerms),
    cache: new Map(),
  };
  const ellipsis = params.snippetEllipsisText ?? '…';
  const toSnippet = snippetSpec(asList(params.attributesToSnippet) ?? DEFAULT_ATTRIBUTES_TO_SNIPPET, defaults.snippetWords ?? 10);
  const toHighlight = asList(params.attributesToHighlight);
  const toRetrieve = asList(params.attributesToRetrieve);

  const nbHits = total;
  const nbPages = hitsPerPage > 0 ? Math.ceil(nbHits / hitsPerPage) : 0;
  const slice = hitsPerPage > 0 ? ranked.slice(page * hitsPerPage, (page + 1) * hitsPerPage) : [];
  // What to copy, highlight and snippet is the same for every hit: decided once per query.
  const recordKeys = slice.length > 0 ? Object.keys(slice[0]!.record).filter((k) => k !== 'objectID') : [];
  const retrieved = new Set(recordKeys.filter((key) => wanted(toRetrieve, key)));
  const partialLevels =
    toRetrieve && !retrieved.has('hierarchy') && toRetrieve.some((a) => a.startsWith('hierarchy.'))
      ? LEVEL_KEYS.filter((k) => wanted(toRetrieve, `hierarchy.${k}`))
      : null;
  const snippetOpts = {...hl, ellipsis};
  const attrs = HIGHLIGHTABLE.map((attr) => ({
    attr,
    level: attr === 'content' ? null : (attr.slice('hierarchy.'.length) as LevelKey),
    highlight: !toHighlight || wanted(toHighlight, attr),
    words: toSnippet.get(attr),
  })).filter((a) => a.highlight || a.words !== undefined);
  // Hits of one page share titles (lvl0, the page's lvl1): each text is marked up once, and
  // every hit gets its own copy.
  const built = new Map<string | number, Map<string, HighlightValue>>();
  const once = (kind: string | number, text: string, make: () => HighlightValue): HighlightValue => {
    let byText = built.get(kind);
    if (!byText) built.set(kind, (byText = new Map()));
    let v = byText.get(text);
    if (!v) byText.set(text, (v = make()));
    return {...v, matchedWords: [...v.matchedWords]};
  };
  const hits = slice.map(({record}) => {
    const hit: AlgoliaHit = {objectID: record.objectID};
    for (const key of Object.keys(record)) {
      if (retrieved.has(key)) (hit as Record<string, unknown>)[key] = record[key as keyof EngineRecord];
    }
    if (partialLevels) {
      hit.hierarchy = Object.fromEntries(partialLevels.map((k) => [k, record.hierarchy[k]])) as EngineRecord['hierarchy'];
    }
    const highlightResult: Record<string, unknown> = {};
    const snippetResult: Record<string, unknown> = {};
    let highlightLevels: Record<string, unknown> | undefined;
    let snippetLevels: Record<string, unknown> | undefined;
    for (const {level, highlight: hlWanted, words} of attrs) {
      const text = level === null ? record.content : record.hierarchy[level];
      if (text === null) continue;
      if (hlWanted) {
        const target = level === null ? highlightResult : (highlightLevels ??= highlightResult.hierarchy = {}) as Record<string, unknown>;
        target[level ?? 'content'] = once('highlight', text, () => highlight(text, hl));
      }
      if (words !== undefined) {
        const target = level === null ? snippetResult : (snippetLevels ??= snippetResult.hierarchy = {}) as Record<string, unknown>;
        target[level ?? 'content'] = once(words, text, () => snippet(text, words, snippetOpts));
      }
    }
    hit._highlightResult = highlightResult;
    if (toSnippet.size > 0) hit._snippetResult = snippetResult;
    return hit;
  });

  const response: AlgoliaResponse = {
    hits,
    nbHits,
    page,
    nbPages,
    hitsPerPage,
    exhaustiveNbHits: true,
    exhaustive: {nbHits: true},
    query,
    params: encodeParams(params),
    index: indexName,
    processingTimeMS: 0,
    renderingContent: {},
  };
  const facets = wantFacets;
  if (facets && facets.length > 0) {
    const counts: Record<string, Record<string, number>> = {};
    const names = facets.includes('*') ? ['language', 'docusaurus_tag', 'version', 'type'] : facets;
    for (const name of names) {
      const c: Record<string, number> = {};
      for (const section of sections()) {
        const record = engine.leadRecord(section);
        const v = facetValue(record, name);
        if (v !== undefined) c[v] = (c[v] ?? 0) + 1;
      }
      counts[name] = c;
    }
    response.facets = counts;
    response.exhaustiveFacetsCount = true;
    response.exhaustive.facetsCount = true;
  }
  if (params.clickAnalytics) response.queryID = pseudoQueryId(query);
  response.processingTimeMS = Math.max(0, Math.round(now() - started));
  return response;
}

function encodeParams(params: QueryParams): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');
}

function pseudoQueryId(query: string): string {
  let h = 0x811c9dc5;
  for (const ch of query) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0').repeat(4);
}

// ---------------------------------------------------------------------------------------------
// The modal's side (for the CLI, the relevance script and the benchmark)

/** The request DocSearch 3.9.0 sends for one keystroke on a wide screen (contextual search on). */
export function modalParams(query: string, snippetWords = 10): QueryParams {
  const levels = LEVEL_KEYS.map((k) => `hierarchy.${k}`);
  return {
    query,
    attributesToRetrieve: [...levels, 'content', 'type', 'url'],
    attributesToSnippet: [...levels.slice(1), 'content'].map((a) => `${a}:${snippetWords}`),
    snippetEllipsisText: '…',
    highlightPreTag: '<mark>',
    highlightPostTag: '</mark>',
    hitsPerPage: 20,
    clickAnalytics: false,
    facetFilters: ['language:en', ['docusaurus_tag:default', 'docusaurus_tag:docs-default-current']],
  };
}

/** DocSearch 3.9.0's display order: groups by lvl0 (at most 5 each), then by lvl1 inside a group. */
export function modalOrder<H extends AlgoliaHit>(hits: H[], maxPerGroup = 5): H[] {
  const group = (list: H[], key: (h: H) => string) => {
    const groups = new Map<string, H[]>();
    for (const h of list) {
      const k = key(h);
      const g = groups.get(k) ?? [];
      if (g.length < maxPerGroup) g.push(h);
      groups.set(k, g);
    }
    return [...groups.values()];
  };
  const lvl0 = (h: H) => {
    const hl = h._highlightResult as {hierarchy?: {lvl0?: {value: string}}} | undefined;
    return String(hl?.hierarchy?.lvl0?.value ?? h.hierarchy?.lvl0).replace(/<\/?mark>/g, '');
  };
  return group(hits, lvl0).flatMap((g) => group(g, (h) => String(h.hierarchy?.lvl1)).flat());
}
