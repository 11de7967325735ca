/**
 * The local index file (format 2): how records are packed into the static file the build ships
 * and unpacked in the browser and by `docs-indexer search`.
 */
import {LEVELS, RECORD_TYPES, type RecordType, type SearchRecord} from '../record/constants.ts';
import {localObjectId} from './local-id.ts';
import {decodeEntities} from './text.ts';
import {checkSynonyms, type Synonym} from './synonyms.ts';

export const LOCAL_INDEX_FORMAT = 2;

/** The local index file written into the build (see LOCAL_INDEX_PATH); see packRecords. */
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
  /** The synonyms the engine answers with (absent: none); see synonyms.ts. */
  synonyms?: Synonym[];
}

//
// Records of one page share their page, its lvl0 and meta attributes, and a heading's records
// share its hierarchy and anchor. The file stores each of those once and every record's own text
// once, in reading order (what gzip compresses best): a record is predicted from the one before
// it, and the rare record that differs from the prediction carries its differences.

/**
 * Docusaurus's heading anchor for a heading text (github-slugger's `slug`), used to predict URLs.
 * Written by hand rather than imported: github-slugger would add 4.2 KB gzip to the browser
 * client (its Unicode regex; 14.5 KB → 18.6 KB, measured with the bench's esbuild bundle), and
 * this gives the same anchors on every heading of our build (257) and for every character below
 * U+0870 (Latin, Greek, Cyrillic, Hebrew, Arabic); it differs only on characters newer than
 * github-slugger 1.5's table. test/slug.test.ts checks it against github-slugger. A wrong guess
 * costs bytes, never a wrong link: a record whose URL differs from the guess carries its own.
 */
export function headingSlug(text: string): string {
  return decodeEntities(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc} -]/gu, '')
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
export type PackedPage = [string, string, string, string, string | null, number, number];

const TYPE_CODES = '0123456c';

function predict(
  page: PackedPage,
  prev: SearchRecord | null,
  type: RecordType,
  text: string | null,
  origin: string,
): Omit<SearchRecord, 'objectID'> {
  const [path, lvl0, language, tag, version, pageRank] = page;
  const base: SearchRecord['hierarchy'] = prev ? prev.hierarchy : {lvl0, lvl1: null, lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null};
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
    const n = LEVELS.indexOf(type);
    hierarchy = Object.fromEntries(LEVELS.map((k, i) => [k, i < n ? base[k] : i === n ? text : null])) as SearchRecord['hierarchy'];
    url = n <= 1 ? pageUrl : `${pageUrl}#${headingSlug(text ?? '')}`;
    level = 100 - 10 * n;
    position = 0;
  }
  const hash = url.indexOf('#');
  const record: Omit<SearchRecord, 'objectID'> = {
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

function applyOverride(r: Omit<SearchRecord, 'objectID'>, o: RecordOverride, origin: string): void {
  if (o.u !== undefined) {
    r.url = /^[a-z]+:/i.test(o.u) ? o.u : origin + o.u;
    const hash = r.url.indexOf('#');
    r.url_without_anchor = hash < 0 ? r.url : r.url.slice(0, hash);
    r.anchor = hash < 0 ? null : r.url.slice(hash + 1);
  }
  if (o.h !== undefined) r.hierarchy = Object.fromEntries(LEVELS.map((k, j) => [k, o.h![j] ?? null])) as SearchRecord['hierarchy'];
  if (o.c !== undefined) r.content = o.c;
  if (o.l !== undefined || o.p !== undefined || o.r !== undefined) {
    r.weight = {pageRank: o.r ?? r.weight.pageRank, level: o.l ?? r.weight.level, position: o.p ?? r.weight.position};
  }
}

const ownText = (r: Pick<SearchRecord, 'type' | 'hierarchy' | 'content'>): string | null =>
  r.type === 'content' ? r.content : r.hierarchy[r.type];

export function packRecords(records: readonly SearchRecord[], origin: string, synonyms: readonly Synonym[] = []): LocalIndexFile {
  const strip = (url: string) => (origin && url.startsWith(origin) ? url.slice(origin.length) : url);
  const pages: PackedPage[] = [];
  let types = '';
  const texts: (string | null)[] = [];
  const exceptions: [number, RecordOverride][] = [];
  let page: PackedPage | null = null;
  let prev: SearchRecord | null = null;
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
    types += TYPE_CODES[RECORD_TYPES.indexOf(r.type)] ?? 'c';
    const text = ownText(r);
    texts.push(text);
    const p = predict(page, prev, r.type, text, origin);
    const o: RecordOverride = {};
    if (p.url !== r.url) o.u = strip(r.url);
    if (LEVELS.some((k) => p.hierarchy[k] !== r.hierarchy[k])) {
      const levels: (string | null)[] = LEVELS.map((k) => r.hierarchy[k]);
      while (levels.length > 1 && levels[levels.length - 1] === null) levels.pop();
      o.h = levels;
    }
    if (p.content !== r.content) o.c = r.content;
    if (p.weight.level !== r.weight.level) o.l = r.weight.level;
    if (p.weight.position !== r.weight.position) o.p = r.weight.position;
    if (Object.keys(o).length > 0) exceptions.push([i, o]);
    prev = r;
  });
  // The texts last: the client builds the engine from them while the rest of the file downloads
  // (index-stream.ts), which needs every other field first.
  return {format: LOCAL_INDEX_FORMAT, engine: 'minisearch', origin, pages, types, exceptions, ...(synonyms.length > 0 ? {synonyms: [...synonyms]} : {}), texts};
}

export class LocalIndexError extends Error {
  override name = 'LocalIndexError';
}

/** The fields of a local index file other than `texts` (what is read before the texts). */
export type LocalIndexHead = Omit<LocalIndexFile, 'texts'>;

/** Checks the fields of a local index file other than its texts. */
export function checkIndexHead(f: unknown): asserts f is LocalIndexHead {
  const h = f as Partial<LocalIndexFile> | null;
  if (
    !h ||
    typeof h !== 'object' ||
    h.format !== LOCAL_INDEX_FORMAT ||
    typeof h.origin !== 'string' ||
    !Array.isArray(h.pages) ||
    typeof h.types !== 'string' ||
    !Array.isArray(h.exceptions)
  ) {
    throw new LocalIndexError(`not a local search index (format ${LOCAL_INDEX_FORMAT} expected)`);
  }
  synonymsOf(h);
}

/** The synonyms an index file or manifest carries (checked; none when absent). */
export function synonymsOf(file: {synonyms?: unknown}): Synonym[] | undefined {
  if (file.synonyms === undefined) return undefined;
  try {
    return checkSynonyms(file.synonyms);
  } catch (error) {
    throw new LocalIndexError(`not a local search index (${(error as Error).message})`);
  }
}

/**
 * Unpacks the records of a local index file one at a time, in order, as their texts come (the
 * client reads the texts while the file downloads: see index-stream.ts).
 */
export class RecordUnpacker {
  private readonly overrides = new Map<number, RecordOverride>();
  private readonly seen = new Map<string, number>();
  private readonly ids = new Set<string>();
  /** Records unpacked so far (the index of the next). */
  count = 0;
  private page = -1;
  /** Records of the current page left. */
  private left = 0;
  private prev: SearchRecord | null = null;

  constructor(private readonly head: LocalIndexHead) {
    for (const e of head.exceptions) {
      if (!Array.isArray(e) || typeof e[0] !== 'number' || !e[1] || typeof e[1] !== 'object') {
        throw new LocalIndexError('not a local search index (malformed exception list)');
      }
      this.overrides.set(e[0], e[1]);
    }
  }

  /** The next record, from its own text. */
  next(text: string | null): SearchRecord {
    const {origin, types, pages} = this.head;
    while (this.left === 0) {
      const n = ++this.page;
      const page = pages[n];
      if (page === undefined) throw new LocalIndexError('not a local search index (record count mismatch)');
      if (!Array.isArray(page) || typeof page[0] !== 'string' || typeof page[6] !== 'number') {
        throw new LocalIndexError(`not a local search index (page ${n} is malformed)`);
      }
      this.left = page[6];
      this.prev = null;
    }
    const i = this.count;
    const code = TYPE_CODES.indexOf(types[i] ?? '');
    if (code < 0) throw new LocalIndexError(`not a local search index (record ${i} is malformed)`);
    const type = RECORD_TYPES[code]!;
    const r = predict(pages[this.page]!, this.prev, type, text, origin);
    const o = this.overrides.get(i);
    if (o) applyOverride(r, o, origin);
    // Identical siblings (same section, type and text) are told apart by their rank.
    const text0 = ownText(r) ?? '';
    let objectID = localObjectId(r.url, type, text0, 0);
    const key = `${r.url}\u0000${type}\u0000${objectID}`;
    const occurrence = this.seen.get(key) ?? 0;
    this.seen.set(key, occurrence + 1);
    if (occurrence > 0) objectID = localObjectId(r.url, type, text0, occurrence);
    while (this.ids.has(objectID)) objectID = localObjectId(r.url, type, `${text0}\u0000${objectID}`, occurrence);
    this.ids.add(objectID);
    const record = {objectID, ...r} as SearchRecord;
    this.prev = record;
    this.count++;
    this.left--;
    return record;
  }

  /** Throws unless every record of the file was unpacked. */
  end(): void {
    if (this.count !== this.head.types.length || this.left !== 0 || this.head.pages.slice(this.page + 1).some((p) => Array.isArray(p) && p[6] !== 0)) {
      throw new LocalIndexError('not a local search index (record count mismatch)');
    }
  }
}

export function unpackRecords(file: unknown): SearchRecord[] {
  checkIndexHead(file);
  const f = file as LocalIndexHead & {texts?: unknown};
  if (!Array.isArray(f.texts) || f.types.length !== f.texts.length) {
    throw new LocalIndexError(`not a local search index (format ${LOCAL_INDEX_FORMAT} expected)`);
  }
  const unpacker = new RecordUnpacker(file);
  const out = (f.texts as (string | null)[]).map((text) => unpacker.next(text ?? null));
  unpacker.end();
  return out;
}
