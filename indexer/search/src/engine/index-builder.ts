/**
 * Indexing: records → sections (the records of one URL) → terms per field, counted as records
 * come (IndexBuilder), then weighed into postings, a term when first read (postingsWeigher). The
 * engine (search.ts) reads the result.
 */
import SearchableMap from 'minisearch/SearchableMap';
import {LEVELS, type SearchRecord} from '../record/constants.ts';
import {decodeEntities, tokenizeWholeAndParts} from './text.ts';
import {RANKING, ruleOn} from './ranking.ts';
import {BM25, CODE, FIELD_BOOST, FIELD_COUNT, isBodyField, isHeadingField, PROSE, roundWeight, STOP_WORDS, WEIGHT_SCALE, WHOLE_FIELDS, type Postings} from './fields.ts';

/** A request, JSON or shell sample rather than prose: many symbols per letter. */
export function looksLikeCode(text: string): boolean {
  if (!ruleOn('code-samples')) return false;
  const t = decodeEntities(text);
  const symbols = t.match(/[{}[\]"=\\$;<>|]/g)?.length ?? 0;
  return symbols / Math.max(1, t.length) > RANKING.codeSymbolShare || /\bHTTP\/1\.1\b|^(?:curl|GET|PUT|POST|DELETE) /.test(t);
}

/** A text's whole words and the parts of its identifiers; for a content text, whether it looks like code. */
interface Tokenized {
  whole: string[];
  parts: string[];
  code?: boolean;
}

/** What LocalSearchEngine's constructor reads of an IndexBuilder. */
export interface BuiltIndex {
  records: SearchRecord[];
  members: number[][];
  pageOf: Int32Array;
  pageCount: number;
  lead: Int32Array;
  /** Term → term id. */
  terms: SearchableMap<number>;
  /** (term id, section × FIELD_COUNT + field, term frequency) triples */
  buf: Int32Array;
  used: number;
  lengths: Float64Array;
  totals: Float64Array;
}

/**
 * Builds a one-file engine's sections and term counts record by record (see LocalSearchEngine's
 * constructor, which finishes it): a section is tokenized and counted as soon as a record of
 * the next section comes, so the client does most of the work while the index file is still
 * downloading (index-stream.ts). Sections are the runs of records with one URL; should a URL come
 * back after another (never in a file packRecords wrote from a crawl), finish() counts again
 * from scratch once every record is there, so the engine is always the one the records make.
 */
export class IndexBuilder {
  readonly records: SearchRecord[] = [];
  private readonly members: number[][] = [];
  private readonly sectionOf = new Map<string, number>();
  private readonly pageIds = new Map<string, number>();
  private readonly pageOf: number[] = [];
  private readonly lead: number[] = [];
  /** Sections counted so far (the sections before the one records are being added to). */
  private counted = 0;
  /** A URL came back after another: count again at the end. */
  private scattered = false;
  /**
   * Titles and headings tokenized once each: a section's are its ancestors' too. (Caching
   * paragraphs, each read once, was measured slower: hashing long strings.)
   */
  private readonly headings = new Map<string, Tokenized>();
  /** Identifier-like words split into their pieces once (see tokenizeWholeAndParts). */
  private readonly pieces = new Map<string, string[]>();
  // Tokenize every section's fields; count terms per (section, field). Postings go into one
  // growing buffer of (term, key, tf) and are bucketed by term after (a counting sort keeps
  // their order): an array per term and a Map of counts per field cost this a third of its time
  // in allocations and garbage collection, which the browser pays before the first answer.
  private readonly ids = new Map<string, number>();
  /** The same, as MiniSearch's radix tree (prefix and typo lookups). */
  private readonly terms = new SearchableMap<number>();
  private lengths = new Float64Array(64 * FIELD_COUNT);
  private readonly totals = new Float64Array(FIELD_COUNT);
  private tf = new Int32Array(1024);
  private readonly inField: number[] = [];
  private buf = new Int32Array(3 * 4096);
  private used = 0;
  /** Per field of the section being counted: its tokenized texts, in order. */
  private readonly fields: Tokenized[][] = Array.from({length: WHOLE_FIELDS}, () => []);

  /** `eager`: count each section once the next begins (else all in finish). */
  constructor(private readonly eager = true) {}

  static of(records: readonly SearchRecord[]): IndexBuilder {
    const b = new IndexBuilder(false);
    for (const r of records) b.add(r);
    return b;
  }

  add(r: SearchRecord): void {
    const i = this.records.length;
    this.records.push(r);
    let s = this.sectionOf.get(r.url);
    if (s === undefined) {
      s = this.members.length;
      this.sectionOf.set(r.url, s);
      this.members.push([]);
      this.lead.push(-1);
      let p = this.pageIds.get(r.url_without_anchor);
      if (p === undefined) this.pageIds.set(r.url_without_anchor, (p = this.pageIds.size));
      this.pageOf.push(p);
      if (this.eager && !this.scattered) while (this.counted < s) this.countSection(this.counted++);
    } else if (s < this.counted) this.scattered = true;
    this.members[s]!.push(i);
    // (the lead: the section's heading, else its first record)
    if (this.lead[s] === -1 || (r.type !== 'content' && this.records[this.lead[s]!]!.type === 'content')) this.lead[s] = i;
  }

  finish(): BuiltIndex {
    // counted from scratch, in section order, now that every section is whole
    if (this.scattered) return IndexBuilder.of(this.records).finish();
    while (this.counted < this.members.length) this.countSection(this.counted++);
    const n = this.members.length;
    return {
      records: this.records,
      members: this.members,
      pageOf: Int32Array.from(this.pageOf),
      pageCount: this.pageIds.size,
      lead: Int32Array.from(this.lead),
      terms: this.terms,
      buf: this.buf,
      used: this.used,
      lengths: this.lengths.subarray(0, n * FIELD_COUNT),
      totals: this.totals,
    };
  }

  private countSection(s: number): void {
    const records = this.records;
    const {fields, headings, pieces} = this;
    const lead = records[this.lead[s]!]!;
    for (const list of fields) list.length = 0;
    // (the words of a field are those of its texts in order: no word crosses from one to the next)
    LEVELS.forEach((k, f) => {
      const v = lead.hierarchy[k];
      if (v === null) return;
      let t = headings.get(v);
      if (t === undefined) {
        const [whole, parts] = tokenizeWholeAndParts(v, pieces);
        headings.set(v, (t = {whole, parts}));
      }
      fields[f]!.push(t);
    });
    for (const i of this.members[s]!) {
      const c = records[i]!.content;
      if (c === null) continue;
      const [whole, parts] = tokenizeWholeAndParts(c, pieces);
      fields[looksLikeCode(c) ? CODE : PROSE]!.push({whole, parts});
    }
    if ((s + 1) * FIELD_COUNT > this.lengths.length) {
      const grown = new Float64Array(2 * this.lengths.length);
      grown.set(this.lengths);
      this.lengths = grown;
    }
    for (let f = 0; f < WHOLE_FIELDS; f++) {
      if (fields[f]!.length === 0) continue;
      this.count(fields[f]!, 'whole', s, f);
      this.count(fields[f]!, 'parts', s, f + WHOLE_FIELDS);
    }
  }

  private count(lists: Tokenized[], part: 'whole' | 'parts', s: number, field: number): void {
    const {ids, inField} = this;
    const body = isBodyField(field);
    let len = 0;
    for (const list of lists) {
      for (const term of list[part]) {
        if (body && STOP_WORDS.has(term)) continue;
        len++;
        let id = ids.get(term);
        if (id === undefined) {
          ids.set(term, (id = ids.size));
          // (into the term tree now: while the index file is still downloading)
          this.terms.set(term, id);
          if (id >= this.tf.length) {
            const grown = new Int32Array(2 * this.tf.length);
            grown.set(this.tf);
            this.tf = grown;
          }
        }
        if (this.tf[id]!++ === 0) inField.push(id);
      }
    }
    const key = s * FIELD_COUNT + field;
    this.lengths[key] = len;
    this.totals[field]! += len;
    if (this.used + 3 * inField.length > this.buf.length) {
      const grown = new Int32Array(Math.max(2 * this.buf.length, this.used + 3 * inField.length));
      grown.set(this.buf);
      this.buf = grown;
    }
    const {buf, tf} = this;
    for (const id of inField) {
      buf[this.used++] = id;
      buf[this.used++] = key;
      buf[this.used++] = tf[id]!;
      tf[id] = 0;
    }
    inField.length = 0;
  }
}

/**
 * Weighs one term's postings (BM25+ per field, as MiniSearch does) from the (term, key, tf)
 * triples the builder collected, bucketed here by term in the order they were added. The engine
 * weighs a term when a query first reads it (LocalSearchEngine.posting): a query reads a few
 * terms, and weighing every term of the index at once, after its last byte, delayed the first
 * answer.
 */
export function postingsWeigher(built: BuiltIndex): (term: number) => Postings {
  const n = built.members.length;
  const {buf, used, lengths, totals} = built;
  // Bucket the postings by term, in the order they were added.
  const termCount = built.terms.size;
  const start = new Int32Array(termCount + 1);
  for (let p = 0; p < used; p += 3) start[buf[p]! + 1]! += 1;
  for (let t = 0; t < termCount; t++) start[t + 1]! += start[t]!;
  const fill = start.slice(0, termCount);
  const keys = new Int32Array(used / 3);
  const tfs = new Int32Array(used / 3);
  for (let p = 0; p < used; p += 3) {
    const at = fill[buf[p]!]!++;
    keys[at] = buf[p + 1]!;
    tfs[at] = buf[p + 2]!;
  }
  const avg = Array.from(totals, (t) => Math.max(1, t / Math.max(1, n)));
  const fieldDf = new Int32Array(FIELD_COUNT);
  return (t) => {
    const from = start[t]!;
    const m = start[t + 1]! - from;
    const at = new Int32Array(m);
    const weight = new Float32Array(m);
    let df = 0;
    let last = -1;
    fieldDf.fill(0);
    for (let j = from; j < from + m; j++) {
      const key = keys[j]!;
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
      for (let j = from; j < from + m; j++) {
        const key = keys[j]!;
        const field = key % FIELD_COUNT;
        if (isHeadingField(field) !== heading) continue;
        const tf = tfs[j]!;
        const len = lengths[key]!;
        // As MiniSearch: a word's rarity is counted per field (rare in titles, common in text).
        const fdf = fieldDf[field]!;
        const idf = Math.log(1 + (n - fdf + 0.5) / (fdf + 0.5));
        at[k] = key;
        weight[k] = roundWeight(FIELD_BOOST[field]! * idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * len) / avg[field]!)))) / WEIGHT_SCALE;
        k++;
      }
    }
    return {at, weight, df, headingEnd};
  };
}
