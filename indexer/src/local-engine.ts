/**
 * The local search engine: one tokenizer, one ranking and one Algolia-shaped response builder,
 * shared by the index builder (Node), the browser's local search client and the CLI `search`
 * command. Runs in Node and in the browser: no `node:` imports and no runtime import of the zod
 * schema here (only MiniSearch), so the browser bundle stays small.
 *
 * Record text is HTML-escaped once by the extractor. The engine tokenizes the decoded text but
 * highlights the escaped text in place: it only ever inserts the highlight tags between
 * characters of the escaped record text, never query text, and never inside an entity.
 */
import MiniSearch, {type SearchResult} from 'minisearch';

export const LOCAL_INDEX_FORMAT = 1;
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

/**
 * One record in the index file:
 * [objectID, url path (site origin removed), type index, hierarchy (trailing nulls cut),
 *  content, pageRank, level, position, language, docusaurus_tag, version].
 */
export type PackedRecord = [
  string,
  string,
  number,
  (string | null)[],
  string | null,
  number,
  number,
  number,
  string,
  string,
  string | null,
];

/** The local index file written into the build (search/local-index.json). */
export interface LocalIndexFile {
  format: typeof LOCAL_INDEX_FORMAT;
  engine: 'minisearch';
  /** Origin prefix removed from every record URL (e.g. https://example.org). */
  origin: string;
  records: PackedRecord[];
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
function matchLength(queryTerm: string, docTerm: string, prefix: boolean): number {
  if (docTerm === queryTerm) return docTerm.length;
  if (prefix && queryTerm.length >= 1 && docTerm.startsWith(queryTerm)) return queryTerm.length;
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
export function createMatcher(terms: readonly string[], prefixLast: boolean): Matcher {
  const memo = new Map<string, {term: number; len: number}[]>();
  const none: {term: number; len: number}[] = [];
  return (piece) => {
    let found = memo.get(piece);
    if (found === undefined) {
      found = none;
      for (let t = 0; t < terms.length; t++) {
        const len = matchLength(terms[t]!, piece, prefixLast && t === terms.length - 1);
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

function scanMatches(text: string, opts: HighlightOptions): {ranges: [number, number][]; found: Set<number>} {
  const ranges: [number, number][] = [];
  const found = new Set<number>();
  if (opts.terms.length === 0) return {ranges, found};
  const matcher = opts.matcher ?? createMatcher(opts.terms, opts.prefixLast);
  // Scan only outside entities, so a tag never lands inside `&lt;`.
  let cursor = 0;
  const segments: [number, number][] = [];
  for (const m of text.matchAll(ENTITY)) {
    segments.push([cursor, m.index]);
    cursor = m.index + m[0].length;
  }
  segments.push([cursor, text.length]);
  for (const [from, to] of segments) {
    const plain = text.slice(from, to);
    for (const m of plain.matchAll(WORD)) {
      const pieces = wordPieces(m[0], from + m.index);
      const done = new Set<number>();
      for (const piece of pieces) {
        for (const {term, len} of matcher(piece.term)) {
          if (done.has(term)) continue;
          done.add(term);
          found.add(term);
          ranges.push([piece.start, Math.min(piece.end, piece.start + len)]);
        }
      }
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
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

/** Algolia's `_highlightResult` entry for one attribute of escaped text. */
export function highlight(text: string, opts: HighlightOptions): HighlightValue {
  const {ranges, found} = findMatches(text, opts);
  const value = applyRanges(text, ranges, opts.preTag, opts.postTag);
  const covered = ranges.reduce((n, [s, e]) => n + e - s, 0);
  return {
    value,
    matchLevel: level(found, opts.terms),
    fullyHighlighted: ranges.length > 0 && covered >= text.replace(/\s+/g, '').length,
    matchedWords: [...found].sort((a, b) => a - b).map((i) => opts.terms[i]!),
  };
}

/** Algolia's `_snippetResult` entry: `words` words around the first match, `…` where cut. */
export function snippet(text: string, words: number, opts: HighlightOptions & {ellipsis: string}): HighlightValue {
  const {ranges, found} = findMatches(text, opts);
  const spans = Array.from(text.matchAll(/\S+/g), (m) => [m.index, m.index + m[0].length] as [number, number]);
  const count = Math.max(1, words);
  let first = 0;
  if (ranges.length > 0) {
    const hit = ranges[0]![0];
    const idx = spans.findIndex(([, e]) => e > hit);
    first = Math.max(0, Math.min(idx - Math.floor(count / 4), spans.length - count));
  }
  const last = Math.min(spans.length, first + count);
  let value = '';
  if (spans.length > 0) {
    value = applyRanges(text, ranges, opts.preTag, opts.postTag, spans[first]![0], spans[last - 1]![1]);
    if (first > 0) value = opts.ellipsis + value;
    if (last < spans.length) value += ` ${opts.ellipsis}`;
  }
  return {
    value,
    matchLevel: level(found, opts.terms),
    matchedWords: [...found].sort((a, b) => a - b).map((i) => opts.terms[i]!),
  };
}

// ---------------------------------------------------------------------------------------------
// Index file

/**
 * The shortest objectID prefix (at least 12 characters) that is still unique in the index.
 * The indexer's IDs are 24 hex characters of a hash: random text that gzip cannot shrink, a
 * third of the compressed file; 12 keep them unique and stable (recent searches, favourites).
 */
export function objectIdLength(ids: readonly string[], min = 12): number {
  const longest = ids.reduce((n, id) => Math.max(n, id.length), 0);
  for (let len = min; len < longest; len++) {
    if (new Set(ids.map((id) => id.slice(0, len))).size === ids.length) return len;
  }
  return longest;
}

export function packRecords(records: readonly EngineRecord[], origin: string): LocalIndexFile {
  const strip = (url: string) => (url.startsWith(origin) ? url.slice(origin.length) : url);
  const idLength = objectIdLength(records.map((r) => r.objectID));
  return {
    format: LOCAL_INDEX_FORMAT,
    engine: 'minisearch',
    origin,
    records: records.map((r) => {
      const levels: (string | null)[] = LEVEL_KEYS.map((k) => r.hierarchy[k]);
      while (levels.length > 1 && levels[levels.length - 1] === null) levels.pop();
      return [
        r.objectID.slice(0, idLength),
        strip(r.url),
        TYPES.indexOf(r.type),
        levels,
        r.content,
        r.weight.pageRank,
        r.weight.level,
        r.weight.position,
        r.language,
        r.docusaurus_tag,
        r.version ?? null,
      ];
    }),
  };
}

export class LocalIndexError extends Error {
  override name = 'LocalIndexError';
}

export function unpackRecords(file: unknown): EngineRecord[] {
  const f = file as Partial<LocalIndexFile> | null;
  if (!f || typeof f !== 'object' || f.format !== LOCAL_INDEX_FORMAT || !Array.isArray(f.records) || typeof f.origin !== 'string') {
    throw new LocalIndexError(`not a local search index (format ${LOCAL_INDEX_FORMAT} expected)`);
  }
  const origin = f.origin;
  return f.records.map((p, i) => {
    if (!Array.isArray(p) || p.length < 10 || typeof p[0] !== 'string' || typeof p[1] !== 'string' || !Array.isArray(p[3])) {
      throw new LocalIndexError(`not a local search index (record ${i} is malformed)`);
    }
    const [objectID, path, type, levels, content, pageRank, lvl, position, language, tag, version] = p;
    const url = /^[a-z]+:/i.test(path) ? path : origin + path;
    const hash = url.indexOf('#');
    const hierarchy = Object.fromEntries(LEVEL_KEYS.map((k, j) => [k, levels[j] ?? null])) as EngineRecord['hierarchy'];
    const record: EngineRecord = {
      objectID,
      url,
      url_without_anchor: hash < 0 ? url : url.slice(0, hash),
      anchor: hash < 0 ? null : url.slice(hash + 1),
      type: TYPES[type] ?? 'content',
      hierarchy,
      content,
      weight: {pageRank, level: lvl, position},
      language,
      docusaurus_tag: tag,
    };
    if (version !== null && version !== undefined) record.version = version;
    return record;
  });
}

// ---------------------------------------------------------------------------------------------
// Search

/**
 * Common English words are not indexed in body text (they still are in titles and headings):
 * they match almost every paragraph, cost the most to score and never decide a hit.
 */
export const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have if in into is it its of on or so such than that the their them then there these they this to was were which will with you your'.split(' '),
);

/** Field boosts: page titles and headings rank above body text. */
const WHOLE_FIELDS = ['l0', 'l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'c'] as const;
const WHOLE_BOOST: Record<string, number> = {l0: 1, l1: 6, l2: 4, l3: 3, l4: 2, l5: 2, l6: 2, c: 1};
/**
 * Each text is indexed twice: whole words in `x`, and the parts and tails of identifiers in
 * `x_p` (`brightness` in `status_led_brightness_pct`), which count for less than a whole word.
 */
const PART_SUFFIX = '_p';
const PART_WEIGHT = 0.4;
const FIELDS = [...WHOLE_FIELDS, ...WHOLE_FIELDS.map((f) => `${f}${PART_SUFFIX}`)];
const BOOST: Record<string, number> = Object.fromEntries(
  FIELDS.map((f) => [f, f.endsWith(PART_SUFFIX) ? WHOLE_BOOST[f.slice(0, -PART_SUFFIX.length)]! * PART_WEIGHT : WHOLE_BOOST[f]!]),
);
const baseField = (f: string) => (f.endsWith(PART_SUFFIX) ? f.slice(0, -PART_SUFFIX.length) : f);

export interface RankedHit {
  index: number;
  record: EngineRecord;
  score: number;
}

export type FacetFilters = (string | string[])[];

function fieldText(r: EngineRecord, name: string): string {
  const field = baseField(name);
  if (field === 'c') return r.content ?? '';
  const key = `lvl${field.slice(1)}` as LevelKey;
  // A content record inherits its headings for matching, but its own heading record should win:
  // headings of content records count only through the record's own level.
  return r.hierarchy[key] ?? '';
}

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

type Doc = EngineRecord & {id: number};

const CODE_WEIGHT = 0.5;
const TYPO_WEIGHT = 0.3;
/** A request, JSON or shell sample rather than prose: many symbols per letter. */
export function looksLikeCode(text: string): boolean {
  const t = decodeEntities(text);
  const symbols = t.match(/[{}[\]"=\\$;<>|]/g)?.length ?? 0;
  return symbols / Math.max(1, t.length) > 0.04 || /\bHTTP\/1\.1\b|^(?:curl|GET|PUT|POST|DELETE) /.test(t);
}

/** MiniSearch plus bounded prefix expansion (the most frequent completions of a prefix). */
class TermIndex extends MiniSearch<Doc> {
  private readonly completionCache = new Map<string, string[]>();

  completions(prefix: string, limit: number): string[] {
    const key = `${limit}:${prefix}`;
    const cached = this.completionCache.get(key);
    if (cached) return cached;
    const found: {term: string; df: number}[] = [];
    for (const [term, fields] of this._index.atPrefix(prefix)) {
      if (term === prefix) continue;
      let df = 0;
      for (const docs of fields.values()) df += docs.size;
      found.push({term, df});
    }
    found.sort((a, b) => b.df - a.df || a.term.length - b.term.length);
    const out = found.slice(0, limit).map((f) => f.term);
    if (this.completionCache.size > 500) this.completionCache.clear();
    this.completionCache.set(key, out);
    return out;
  }
}

/** How many completions a prefix being typed expands to (Algolia also bounds prefix matches). */
function completionLimit(prefix: string): number {
  return prefix.length <= 1 ? 10 : prefix.length === 2 ? 12 : prefix.length === 3 ? 30 : 60;
}
const HEADING_FIELDS = FIELDS.filter((f) => baseField(f) !== 'c');
/** Score of a completion relative to an exact match of the typed word. */
const PREFIX_WEIGHT = 0.6;
const FUZZY_WEIGHT = 0.35;

export class LocalSearchEngine {
  readonly records: EngineRecord[];
  private readonly mini: TermIndex;

  constructor(records: EngineRecord[]) {
    this.records = records;
    this.mini = new TermIndex({
      fields: [...FIELDS],
      idField: 'id',
      extractField: (doc, field) => (field === 'id' ? doc.id : fieldText(doc, field)),
      tokenize: (text, field) => tokenizeForIndex(text, field?.endsWith(PART_SUFFIX) ? 'parts' : 'whole'),
      processTerm: (term, field) => (field !== undefined && baseField(field) === 'c' && STOP_WORDS.has(term) ? null : term),
      searchOptions: {tokenize: tokenizeQuery, processTerm: (t) => t},
    });
    this.mini.addAll(records.map((r, id) => ({...r, id})));
  }

  static fromIndexFile(file: unknown): LocalSearchEngine {
    return new LocalSearchEngine(unpackRecords(file));
  }

  /**
   * Final score of MiniSearch's BM25 results, with what Algolia's ranking would weigh:
   * how many query words matched, all of them in a title or heading, as a phrase, headings
   * above paragraphs, and pages that talk about the query (many matching records) first.
   */
  private score(results: SearchResult[], terms: string[], prefixLast: boolean): RankedHit[] {
    const perPage = new Map<string, number>();
    for (const res of results) {
      const page = this.records[res.id as number]!.url_without_anchor;
      perPage.set(page, (perPage.get(page) ?? 0) + 1);
    }
    const last = terms.length - 1;
    const matcher = createMatcher(terms, prefixLast);
    const phrase =
      terms.length > 1
        ? new RegExp(terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s_:./-]+') + (prefixLast ? '' : '\\b'), 'u')
        : null;
    const hits = results.map((res) => {
      const index = res.id as number;
      const record = this.records[index]!;
      // MiniSearch multiplies by the number of matched query strings, completions included;
      // count original words instead.
      const inHeading = new Array<boolean>(terms.length).fill(false);
      const matched = new Array<boolean>(terms.length).fill(false);
      const typo = new Array<boolean>(terms.length).fill(true);
      for (const [docTerm, fields] of Object.entries(res.match)) {
        for (const {term: i} of matcher(docTerm)) {
          const t = terms[i]!;
          matched[i] = true;
          if (docTerm === t || (prefixLast && i === last && docTerm.startsWith(t))) typo[i] = false;
          if (fields.some((f) => baseField(f) !== 'c' && baseField(f) !== 'l0')) inHeading[i] = true;
        }
      }
      const words = matched.filter(Boolean).length || 1;
      let score = (res.score / Math.max(1, res.queryTerms.length)) * words;
      // Like Algolia's first criterion: a match without typos beats one that needs them.
      score *= TYPO_WEIGHT ** matched.filter((m, i) => m && typo[i]).length;
      if (inHeading.every(Boolean)) score *= 2;
      if (phrase && matched.every(Boolean) && this.phraseIn(record, phrase)) score *= 1.5;
      score *= 1 + 0.25 * Math.log(perPage.get(record.url_without_anchor) ?? 1);
      // Prose beats code samples (a request sample repeats the same header on every page), and
      // a page's opening paragraphs say what it is about.
      if (record.content !== null && looksLikeCode(record.content)) score *= CODE_WEIGHT;
      score *= 1 + 0.3 / (1 + record.weight.position / 3);
      // Headings beat the paragraphs under them; important pages beat others.
      score *= (1 + record.weight.level / 200) * (1 + Math.max(0, record.weight.pageRank) / 100);
      return {index, record, score};
    });
    return hits;
  }

  private phraseIn(record: EngineRecord, phrase: RegExp): boolean {
    const texts = [...LEVEL_KEYS.slice(1).map((k) => record.hierarchy[k]), record.content];
    return texts.some((t) => t !== null && phrase.test(normalizeTerm(decodeEntities(t))));
  }

  /** Ranked, distinct by URL, filtered. The last word matches as a prefix unless followed by a space. */
  rank(query: string, facetFilters?: FacetFilters): RankedHit[] {
    const prefixLast = !/\s$/.test(query);
    const keep = facetFilters && facetFilters.length > 0 ? compileFacetFilters(facetFilters) : undefined;
    const all = tokenizeQuery(query);
    // Stop words are dropped from the query, except a last word still being typed.
    const kept = all.filter((t, i) => !STOP_WORDS.has(t) || (prefixLast && i === all.length - 1));
    const terms = kept.length > 0 ? kept : all;
    let hits: RankedHit[];
    if (terms.length === 0) {
      hits = this.records.map((record, index) => ({index, record, score: 0}));
    } else {
      const last = terms.length - 1;
      const queries = terms.map((t, i) => {
        if (i !== last || !prefixLast) return t;
        const more = this.mini.completions(t, completionLimit(t));
        // One typed letter is too little to read paragraphs for: it matches titles and headings.
        const fields = t.length <= 1 ? HEADING_FIELDS : undefined;
        if (more.length === 0) return {queries: [t], fields};
        return {combineWith: 'OR' as const, fields, queries: [t, {queries: more, fuzzy: false, boostTerm: () => PREFIX_WEIGHT}]};
      });
      const run = (combineWith: 'AND' | 'OR') =>
        this.mini.search(
          {combineWith, queries},
          {
            boost: BOOST,
            prefix: false,
            fuzzy: (t) => typosAllowed(t),
            weights: {prefix: PREFIX_WEIGHT, fuzzy: FUZZY_WEIGHT},
            filter: keep ? (res) => keep(this.records[res.id as number]!) : undefined,
          },
        );
      let results = run('AND');
      if (results.length === 0 && terms.length > 1) results = run('OR');
      hits = this.score(results, terms, prefixLast);
    }
    if (terms.length === 0 && keep) hits = hits.filter((h) => keep(h.record));
    hits.sort(
      (a, b) =>
        b.score - a.score ||
        b.record.weight.pageRank - a.record.weight.pageRank ||
        b.record.weight.level - a.record.weight.level ||
        a.record.weight.position - b.record.weight.position,
    );
    const seen = new Set<string>();
    return hits.filter((h) => (seen.has(h.record.url) ? false : (seen.add(h.record.url), true)));
  }
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

function attrText(r: EngineRecord, attr: string): string | null {
  return attr === 'content' ? r.content : r.hierarchy[attr.slice('hierarchy.'.length) as LevelKey];
}

function setPath(target: Record<string, unknown>, attr: string, value: unknown): void {
  const [head, tail] = attr.split('.') as [string, string | undefined];
  if (tail === undefined) target[head] = value;
  else ((target[head] ??= {}) as Record<string, unknown>)[tail] = value;
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
  const ranked = engine.rank(query, facetFilters);
  const terms = tokenizeQuery(query);
  const prefixLast = !/\s$/.test(query);
  const hl: HighlightOptions = {
    terms,
    prefixLast,
    preTag: params.highlightPreTag ?? DEFAULT_HIGHLIGHT_PRE,
    postTag: params.highlightPostTag ?? DEFAULT_HIGHLIGHT_POST,
    matcher: createMatcher(terms, prefixLast),
    cache: new Map(),
  };
  const ellipsis = params.snippetEllipsisText ?? '…';
  const toSnippet = snippetSpec(asList(params.attributesToSnippet) ?? DEFAULT_ATTRIBUTES_TO_SNIPPET, defaults.snippetWords ?? 10);
  const toHighlight = asList(params.attributesToHighlight);
  const toRetrieve = asList(params.attributesToRetrieve);

  const nbHits = ranked.length;
  const nbPages = hitsPerPage > 0 ? Math.ceil(nbHits / hitsPerPage) : 0;
  const slice = hitsPerPage > 0 ? ranked.slice(page * hitsPerPage, (page + 1) * hitsPerPage) : [];
  const hits = slice.map(({record}) => {
    const hit: AlgoliaHit = {objectID: record.objectID};
    for (const [key, value] of Object.entries(record)) {
      if (key !== 'objectID' && wanted(toRetrieve, key)) (hit as Record<string, unknown>)[key] = value;
    }
    if (toRetrieve && hit.hierarchy === undefined && toRetrieve.some((a) => a.startsWith('hierarchy.'))) {
      hit.hierarchy = Object.fromEntries(
        LEVEL_KEYS.filter((k) => wanted(toRetrieve, `hierarchy.${k}`)).map((k) => [k, record.hierarchy[k]]),
      ) as EngineRecord['hierarchy'];
    }
    const highlightResult: Record<string, unknown> = {};
    const snippetResult: Record<string, unknown> = {};
    for (const attr of HIGHLIGHTABLE) {
      const text = attrText(record, attr);
      if (text === null) continue;
      if (!toHighlight || wanted(toHighlight, attr)) setPath(highlightResult, attr, highlight(text, hl));
      const words = toSnippet.get(attr);
      if (words !== undefined) setPath(snippetResult, attr, snippet(text, words, {...hl, ellipsis}));
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
  const facets = asList(params.facets);
  if (facets && facets.length > 0) {
    const counts: Record<string, Record<string, number>> = {};
    const names = facets.includes('*') ? ['language', 'docusaurus_tag', 'version', 'type'] : facets;
    for (const name of names) {
      const c: Record<string, number> = {};
      for (const {record} of ranked) {
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
