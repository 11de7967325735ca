/**
 * The local search engine: ranks records for a query over MiniSearch's radix tree. Runs in Node
 * and in the browser: no `node:` imports and no runtime import of zod, so the browser bundle stays
 * small.
 */
import SearchableMap from 'minisearch/SearchableMap';
import {LEVELS, RECORD_TYPES, type RecordType, type SearchRecord} from '../record/constants.ts';
import {decodeEntities, normalizeTerm, remembered, stem, stemRoot, tokenizeQuery, tokenizeWholeAndParts, transpositions, typosAllowed, type TypoTerms} from './text.ts';
import {synonymsOf, unpackRecords, type LocalIndexFile} from './index-file.ts';
import {SynonymTable, type Synonym} from './synonyms.ts';
import type {SectionTable, ShardPostings} from './shards.ts';

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

/**
 * Words of a question that say nothing about the answer (`how do i get a token`): dropped from a
 * query of several words, as stop words are, unless nothing else is left.
 */
export const QUESTION_WORDS = new Set('how what which why when where who i me my we our should would could shall may might must does do did mean can need want doesnt doesn dont don didnt didn isnt isn cant cannot wont won'.split(' '));

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
/** Score of another form of the word (`tokens` for `token`, `creating` for `create`). */
const STEM_WEIGHT = 0.7;
/** Score of a word found through a synonym relative to the word typed. */
const SYNONYM_WEIGHT = 0.8;
/**
 * Fewer sections than this hold every word of a query of several words: sections holding all
 * but one (of 3 or more words), and pages whose sections together hold every word, follow them.
 */
const FEW_ALL = 10;
/** Fewer hits than this without typos: try again forgiving typos. */
const FUZZY_BELOW = 5;
/** Candidates that get the phrase check (a regex over their text). */
const PHRASE_CHECKED = 100;

export interface RankedHit {
  /** Index of the record shown for this hit. */
  readonly index: number;
  readonly record: SearchRecord;
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

/** What facets and filters read of a record. */
export type FacetRecord = Pick<SearchRecord, 'language' | 'docusaurus_tag' | 'version' | 'type'>;

export function facetValue(r: FacetRecord, attr: string): string | undefined {
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
export function compileFacetFilters(filters: FacetFilters | undefined): (r: FacetRecord) => boolean {
  if (!filters || filters.length === 0) return () => true;
  const one = (f: string) => {
    const {attr, value, negate} = parseFilter(f);
    return (r: FacetRecord) => (facetValue(r, attr) === value) !== negate;
  };
  const groups = filters.map((f) => (Array.isArray(f) ? f.map(one) : [one(f)])).filter((g) => g.length > 0);
  return (r) => groups.every((g) => g.some((test) => test(r)));
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
export interface Postings {
  /** section * FIELD_COUNT + field */
  at: Int32Array;
  weight: Float32Array;
  /** Sections that contain the term (document frequency). */
  df: number;
  /** Postings before this index are in page titles and headings (lvl1..lvl6), the rest in lvl0 or body text. */
  headingEnd: number;
  /** Only the title and heading postings (a sharded index's heads file): replaced by the whole list once fetched. */
  partial?: boolean;
}

/** A text's whole words and the parts of its identifiers; for a content text, whether it looks like code. */
interface Tokenized {
  whole: string[];
  parts: string[];
  code?: boolean;
}

/** What LocalSearchEngine's constructor reads of an IndexBuilder. */
interface BuiltIndex {
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

interface StemForm {
  word: string;
  id: number;
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
  /** Every record (a sharded index: only those of the sections loaded so far). */
  readonly records: SearchRecord[];
  /** Per section: its records (record indices, in order); sharded: once loaded. */
  private readonly members: number[][];
  /** Per section: the record that stands for it (its heading, else its first record); -1 until loaded. */
  private readonly lead: Int32Array;
  private readonly pageOf: Int32Array;
  private readonly pageCount: number;
  /** Per section, what ranking reads of its lead record (known before its records are). */
  private readonly leadLevel: Int16Array;
  private readonly leadPosition: Int32Array;
  private readonly leadType: Uint8Array;
  private readonly pageRank: Float32Array;
  /** Per page: its facet values. */
  private readonly pageFacets: {language: string; docusaurus_tag: string; version?: string}[];
  /** Whether the index arrives in pieces (addShard, addRecords) rather than whole. */
  readonly sharded: boolean;
  /** MiniSearch's radix tree: term → term id. */
  private readonly terms: SearchableMap<number>;
  private readonly postings: Postings[] = [];
  private readonly completionCache = new Map<string, number[]>();
  /** See expansions. */
  private readonly expansionCache = new Map<string, readonly Expansion[]>();
  /** The record types the current query's `type` filters let a hit show (null: any); see bestRecord. */
  private typeOk: ((type: RecordType) => boolean) | null = null;
  /** The synonyms the index carries (see useSynonyms); null: none. */
  private synonyms: SynonymTable | null = null;
  /** What a synonym's words find, per synonym (see synonymExpansions). */
  private readonly synonymCache = new Map<string, readonly Expansion[]>();
  /** Stem → the plain words with that stem and their ids, per stem asked for (see sameStem). */
  private readonly stems = new Map<string, StemForm[]>();
  private readonly filterCache = new Map<string, Uint8Array>();
  /** Rankings of the empty query per filter (never changed once made). */
  private readonly emptyCache = new Map<string, Scored[]>();
  private readonly plain: (string | undefined)[] = [];
  /** Sharded: how many times terms or records were added (a ranking made before is stale). */
  private loaded = 0;
  /** Sharded: the last ranking made (see search). */
  private lastRanking: {key: string; loaded: number; ranked: Scored[]; others: Int32Array; typoTerms: TypoTerms} | null = null;
  /** The word tests of the last query (see wordTests). */
  private testsFor: {terms: string[]; prefixLast: boolean; typoTerms: TypoTerms; tests: ((text: string) => boolean)[]} | null = null;
  // Per-query scratch space, one slot per section (per page: perPage), reset after each query;
  // made by allocateScratch.
  private acc!: Float64Array;
  private matched!: Uint32Array;
  private inHeading!: Uint32Array;
  private exact!: Uint32Array;
  private touched!: Int32Array;
  private perPage!: Uint16Array;

  /** `source`: the records, a sharded index's section table, or a builder the records were added to. */
  constructor(source: readonly SearchRecord[] | SectionTable | IndexBuilder) {
    if (!Array.isArray(source) && !(source instanceof IndexBuilder)) {
      // A sharded index: the section table now, terms and records as they are fetched.
      const t = source as SectionTable;
      this.sharded = true;
      this.records = [];
      const n = t.pageOf.length;
      this.pageOf = t.pageOf;
      this.pageCount = t.pageFacets.length;
      this.lead = new Int32Array(n).fill(-1);
      this.leadLevel = t.leadLevel;
      this.leadPosition = t.leadPosition;
      this.leadType = t.leadType;
      this.pageRank = t.pageRank;
      this.pageFacets = t.pageFacets;
      this.terms = new SearchableMap<number>();
      this.members = [];
      this.allocateScratch(n);
      return;
    }
    const built = (source instanceof IndexBuilder ? source : IndexBuilder.of(source as readonly SearchRecord[])).finish();
    this.sharded = false;
    this.records = built.records;
    this.members = built.members;
    const n = this.members.length;
    this.pageCount = built.pageCount;
    this.pageOf = built.pageOf;
    this.lead = built.lead;
    const leads = Array.from(this.lead, (i) => this.records[i]!);
    this.leadLevel = Int16Array.from(leads, (r) => r.weight.level);
    this.leadPosition = Int32Array.from(leads, (r) => r.weight.position);
    this.leadType = Uint8Array.from(leads, (r) => RECORD_TYPES.indexOf(r.type));
    this.pageRank = Float32Array.from(leads, (r) => r.weight.pageRank);
    this.pageFacets = [];
    leads.forEach((r, s) => {
      const facets: {language: string; docusaurus_tag: string; version?: string} = {language: r.language, docusaurus_tag: r.docusaurus_tag};
      if (r.version !== undefined) facets.version = r.version;
      this.pageFacets[this.pageOf[s]!] ??= facets;
    });
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
    for (let t = 0; t < termCount; t++) {
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
          weight[k] = FIELD_BOOST[field]! * idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * len) / avg[field]!)));
          k++;
        }
      }
      this.postings.push({at, weight, df, headingEnd});
    }
    this.terms = built.terms;
    this.allocateScratch(n);
  }

  /** The per-query scratch arrays for `sections` sections (and this.pageCount pages). */
  private allocateScratch(sections: number): void {
    this.acc = new Float64Array(sections);
    this.matched = new Uint32Array(sections);
    this.inHeading = new Uint32Array(sections);
    this.exact = new Uint32Array(sections);
    this.touched = new Int32Array(sections);
    this.perPage = new Uint16Array(this.pageCount);
  }

  static fromIndexFile(file: unknown): LocalSearchEngine {
    return new LocalSearchEngine(unpackRecords(file)).useSynonyms(synonymsOf(file as LocalIndexFile));
  }

  /** Every term and its postings (to write a sharded index). */
  *exportTerms(): Iterable<[string, Postings]> {
    for (const [term, id] of this.terms) yield [term, this.postings[id]!];
  }

  /** Per section: its page and lead record (to write a sharded index). */
  sectionLeads(): {page: number; record: SearchRecord}[] {
    return Array.from(this.lead, (i, s) => ({page: this.pageOf[s]!, record: this.records[i]!}));
  }

  /** Number of sections (hits are distinct sections). */
  get sectionCount(): number {
    return this.lead.length;
  }

  /** Sharded index: the postings of the terms of one shard (terms already known are kept). */
  addTerms(postings: ShardPostings): void {
    this.loaded++;
    for (const [term, p] of postings) {
      const id = this.terms.get(term);
      if (id === undefined) {
        const added = this.postings.length;
        this.terms.set(term, added);
        this.postings.push(p);
      } else if (this.postings[id]!.partial && !p.partial) this.postings[id] = p;
    }
    this.completionCache.clear();
    this.expansionCache.clear();
    this.synonymCache.clear();
    this.stems.clear();
  }

  /**
   * Answers with these synonyms from now on (the list the index file carries, see
   * synonyms.ts): a query word, or a run of words, that a synonym names also finds the
   * synonym's other words, as Algolia does with the same list.
   */
  useSynonyms(list: readonly Synonym[] | undefined): this {
    this.synonyms = list && list.length > 0 ? new SynonymTable(list, synonymWords) : null;
    this.synonymCache.clear();
    return this;
  }

  /** The query's words grouped by the synonyms (a run a synonym names becomes one term) and what each finds. */
  private withSynonyms(terms: string[]): {terms: string[]; finds: Map<string, string[][]> | null} {
    if (!this.synonyms) return {terms, finds: null};
    const groups = this.synonyms.group(terms);
    if (!groups.some((g) => g.finds.length > 0)) return {terms, finds: null};
    const finds = new Map<string, string[][]>();
    const grouped = groups.map((g) => {
      const term = g.words.join(' ');
      if (g.finds.length > 0) finds.set(term, g.finds);
      return term;
    });
    return {terms: grouped, finds};
  }

  /** Every word the synonyms of a query's words find (a sharded index fetches their terms too). */
  synonymWordsOf(query: string): string[] {
    const {finds} = this.withSynonyms(synonymWords(query));
    return finds ? [...new Set([...finds.values()].flat(2))] : [];
  }

  /**
   * The postings a synonym's words find, as expansions of the query word: one word, its own
   * expansions (the word and its other forms); several words, the sections holding all of them
   * (their postings there), as one list kept for the rest of the engine's life.
   */
  private synonymExpansions(words: string[]): readonly Expansion[] {
    const key = words.join(' ');
    return remembered(this.synonymCache, 500, key, () => {
      if (words.length === 1) {
        return this.expansions(words[0]!, false, false).map((e) => ({id: e.id, term: words[0]!, weight: e.weight * SYNONYM_WEIGHT, exact: true}));
      }
      // (section → its postings of every word, while every word so far is in it)
      let inAll: Map<number, [number, number][]> | null = null;
      for (const word of words) {
        const here = new Map<number, [number, number][]>();
        for (const e of this.expansions(word, false, false)) {
          const {at, weight} = this.postings[e.id]!;
          for (let j = 0; j < at.length; j++) {
            const s = (at[j]! / FIELD_COUNT) | 0;
            if (inAll && !inAll.has(s)) continue;
            let list = here.get(s);
            if (!list) here.set(s, (list = [...(inAll?.get(s) ?? [])]));
            list.push([at[j]!, (e.weight * weight[j]!) / words.length]);
          }
        }
        inAll = here;
      }
      const entries = [...(inAll ?? new Map<number, [number, number][]>()).values()].flat();
      if (entries.length === 0) return [];
      // Heading postings first, as in every list (see Postings.headingEnd).
      entries.sort((a, b) => Number(isHeadingField(b[0] % FIELD_COUNT)) - Number(isHeadingField(a[0] % FIELD_COUNT)));
      const headingEnd = entries.filter(([k]) => isHeadingField(k % FIELD_COUNT)).length;
      const id = this.postings.length;
      this.postings.push({at: Int32Array.from(entries, ([k]) => k), weight: Float32Array.from(entries, ([, w]) => w), df: new Set(entries.map(([k]) => (k / FIELD_COUNT) | 0)).size, headingEnd});
      return [{id, term: words[0]!, weight: SYNONYM_WEIGHT, exact: true}];
    });
  }

  /** Sharded index: the records of consecutive sections from `firstSection` on, in order. */
  addRecords(firstSection: number, records: readonly SearchRecord[]): void {
    this.loaded++;
    let s = firstSection - 1;
    let url: string | null = null;
    for (const r of records) {
      if (r.url !== url) {
        url = r.url;
        s++;
        if (s >= this.lead.length) throw new Error(`record chunk overflows the section table (section ${s})`);
        if (this.lead[s] !== -1) return; // already loaded
        this.members[s] = [];
      }
      const i = this.records.length;
      this.records.push(r);
      this.members[s]!.push(i);
      if (this.lead[s] === -1 || (r.type !== 'content' && this.records[this.lead[s]!]!.type === 'content')) this.lead[s] = i;
    }
  }

  /** Whether the index holds `word` (or, as `prefix`, a word starting with it). */
  knows(word: string, prefix: boolean): boolean {
    if (this.terms.has(word)) return true;
    if (!prefix) return false;
    for (const _ of this.terms.atPrefix(word).keys()) return true;
    return false;
  }

  /** Whether a section's records are here (always, unless sharded). */
  hasRecords(section: number): boolean {
    return this.lead[section] !== -1;
  }

  /** What facets read of a section (its page's values, its lead record's type). */
  facetRecord(section: number): FacetRecord {
    const f = this.pageFacets[this.pageOf[section]!]!;
    return {...f, type: RECORD_TYPES[this.leadType[section]!]!};
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

  /**
   * The other plain words of the index with the same stem as `term` (and their ids). Every word
   * whose stem is K starts with K, or with K less its last letter when that is an `i` standing
   * for a `y` (`batteri` for `battery`; see stem), so only the words under that prefix are
   * stemmed: stemming the whole vocabulary on the first query cost the first answer about as
   * much as building the index's radix tree (measured, 23 pages).
   */
  private sameStem(term: string): StemForm[] {
    const key = stem(term);
    if (key === term && !/^[a-z]{4,}$/.test(term)) return [];
    let forms = this.stems.get(key);
    if (!forms) {
      forms = [];
      const prefix = key.endsWith('i') ? key.slice(0, -1) : key;
      for (const [word, id] of this.terms.atPrefix(prefix)) {
        if (word.length >= 4 && /^[a-z]+$/.test(word) && stem(word) === key) forms.push({word, id});
      }
      if (this.stems.size > 500) this.stems.clear();
      this.stems.set(key, forms);
    }
    return forms;
  }

  /**
   * A query word's expansions, kept per (word, prefix, fuzzy): while a reader types, every word
   * before the last one is looked up again at each keystroke (typos above all: a walk of the
   * term tree). Cleared when terms are added (sharded).
   */
  private expansions(term: string, prefix: boolean, fuzzy: boolean): readonly Expansion[] {
    return remembered(this.expansionCache, 500, `${prefix ? 1 : 0}${fuzzy ? 1 : 0}${term}`, () => this.expand(term, prefix, fuzzy));
  }

  private expand(term: string, prefix: boolean, fuzzy: boolean): Expansion[] {
    const out: Expansion[] = [];
    const exact = this.terms.get(term);
    if (exact !== undefined) out.push({id: exact, weight: 1, exact: true});
    const seen = new Set(out.map((e) => e.id));
    for (const {id} of this.sameStem(term)) {
      if (!seen.has(id)) {
        seen.add(id);
        out.push({id, weight: STEM_WEIGHT, exact: true});
      }
    }
    if (prefix) {
      for (const id of this.completions(term)) {
        if (!seen.has(id)) {
          seen.add(id);
          out.push({id, weight: PREFIX_WEIGHT, exact: true});
        }
      }
    }
    const typos = typosAllowed(term);
    if (fuzzy && typos > 0) {
      const weight = (distance: number) => (FUZZY_WEIGHT * term.length) / (term.length + distance);
      const add = (word: string, id: number, w: number) => {
        if (seen.has(id)) return;
        seen.add(id);
        out.push({id, term: word, weight: w, exact: false});
        // and the word's other forms (`batery` → `battery` → `batteries`)
        for (const other of this.sameStem(word)) {
          if (!seen.has(other.id)) {
            seen.add(other.id);
            out.push({id: other.id, term: other.word, weight: w * STEM_WEIGHT, exact: false});
          }
        }
      };
      // A transposition is one edit (MiniSearch's Levenshtein counts it as two).
      for (const word of transpositions(term)) {
        const id = this.terms.get(word);
        if (id !== undefined) add(word, id, weight(1));
      }
      for (const [word, [id, distance]] of this.terms.fuzzyGet(term, typos)) add(word, id, weight(distance));
    }
    return out;
  }

  private passes(filters: FacetFilters | undefined): Uint8Array | undefined {
    if (!filters || filters.length === 0) return undefined;
    const key = JSON.stringify(filters);
    let pass = this.filterCache.get(key);
    if (!pass) {
      const keep = compileFacetFilters(filters);
      // Facet values are a page's and a record's type: a section passes when one of its records
      // does (the hit then shows such a record, see bestRecord). One test per (page, types).
      const memo = new Map<number, number>();
      pass = Uint8Array.from(this.lead, (_, s) => {
        const types = this.recordTypes(s);
        const key = this.pageOf[s]! * 256 + types;
        let v = memo.get(key);
        if (v === undefined) {
          const facets = this.pageFacets[this.pageOf[s]!]!;
          v = 0;
          for (let t = 0; t < RECORD_TYPES.length && v === 0; t++) if (types & (1 << t) && keep({...facets, type: RECORD_TYPES[t]!})) v = 1;
          memo.set(key, v);
        }
        return v;
      });
      if (this.filterCache.size > 50) this.filterCache.clear();
      this.filterCache.set(key, pass);
    }
    return pass;
  }

  /** The types of a section's records, as bits of RECORD_TYPES (not loaded yet: its lead's and content). */
  private recordTypes(section: number): number {
    const members = this.lead[section] === -1 ? undefined : this.members[section];
    if (!members) return (1 << this.leadType[section]!) | (1 << RECORD_TYPES.indexOf('content'));
    let types = 0;
    for (const i of members) types |= 1 << RECORD_TYPES.indexOf(this.records[i]!.type);
    return types;
  }

  /**
   * The query words (bits) that few headings hold: at most one section in 64 has the word in
   * its title or a heading (`disabled`, `button`; not `api`, `local` or `v2`).
   */
  private rareInHeadings(terms: readonly string[]): number {
    const most = Math.max(1, this.lead.length / 64);
    let bits = 0;
    terms.forEach((t, k) => {
      const id = this.terms.get(t);
      if (id !== undefined && this.postings[id]!.headingEnd > 0 && this.postings[id]!.headingEnd <= most) bits |= 1 << k;
    });
    return bits;
  }

  /** The record types a query's filters let a hit show (null: any), from their `type` filters. */
  private typeTestFor(filters: FacetFilters | undefined): ((type: RecordType) => boolean) | null {
    const groups = (filters ?? []).filter((f) => (Array.isArray(f) ? f : [f]).every((item) => parseFilter(item).attr === 'type'));
    if (groups.length === 0) return null;
    const keep = compileFacetFilters(groups);
    return (type) => keep({language: '', docusaurus_tag: '', type});
  }

  /** Adds every query term's postings into the scratch arrays; returns how many sections were touched. */
  private accumulate(
    terms: string[],
    prefixLast: boolean,
    fuzzy: boolean,
    pass: Uint8Array | undefined,
    typoTerms: Map<string, Set<string>>,
    finds: Map<string, string[][]> | null,
  ): number {
    let touched = 0;
    const last = terms.length - 1;
    for (let t = 0; t < terms.length; t++) {
      const bit = 1 << t;
      const prefix = prefixLast && t === last && !terms[t]!.includes(' ');
      // One typed letter is too little to read paragraphs (or the lvl0 every page of a
      // category shares) for: it matches page titles and headings.
      const headingsOnly = prefix && terms[t]!.length <= 1;
      const own = terms[t]!.includes(' ') ? [] : this.expansions(terms[t]!, prefix, fuzzy);
      const alternatives = finds?.get(terms[t]!) ?? [];
      if (alternatives.length > 0) {
        // The words a synonym finds count as the query word where they stand (see wordTests).
        const set = typoTerms.get(terms[t]!) ?? new Set<string>();
        for (const words of alternatives) for (const w of words) set.add(w);
        typoTerms.set(terms[t]!, set);
      }
      for (const e of alternatives.length > 0 ? [...own, ...alternatives.flatMap((words) => this.synonymExpansions(words))] : own) {
        if (e.term !== undefined && e.exact) {
          // (a synonym: its words are in typoTerms already)
        } else if (e.term !== undefined) {
          const set = typoTerms.get(terms[t]!) ?? new Set<string>();
          typoTerms.set(terms[t]!, set.add(e.term));
        }
        const {at, weight, headingEnd} = this.postings[e.id]!;
        // (a partial list holds only the headings: its `at` ends there)
        const end = headingsOnly ? Math.min(headingEnd, at.length) : at.length;
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

  /**
   * For a query with few sections holding every word: [the best section of each page whose
   * sections together hold every word (none of them alone), the sections holding all but one
   * word (3 words or more)], each list unordered; empty when both are.
   */
  private nearMisses(touched: number, words: number, all: number): number[][] {
    const pageMask = new Map<number, number>();
    const best = new Map<number, number>();
    const nearSections: number[] = [];
    for (let j = 0; j < touched; j++) {
      const s = this.touched[j]!;
      const m = this.matched[s]!;
      const p = this.pageOf[s]!;
      pageMask.set(p, (pageMask.get(p) ?? 0) | m);
      if (m === all) best.set(p, -1); // this page already has a section with every word
      else {
        const b = best.get(p);
        if (b !== -1 && (b === undefined || this.acc[s]! * popcount(m) > this.acc[b]! * popcount(this.matched[b]!))) best.set(p, s);
        if (words >= 3 && popcount(m) === words - 1) nearSections.push(s);
      }
    }
    const pages: number[] = [];
    for (const [p, s] of best) if (s >= 0 && pageMask.get(p) === all) pages.push(s);
    const inPages = new Set(pages);
    const rest = nearSections.filter((s) => !inPages.has(s));
    return pages.length + rest.length > 0 ? [pages, rest] : [];
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
    if (lead < 0) return false;
    if (this.records[lead]!.type !== 'content' && phrase.test(this.plainText(lead))) return true;
    return this.members[section]!.some((i) => this.records[i]!.type === 'content' && phrase.test(this.plainText(i)));
  }

  private compare = (a: {section: number; score: number}, b: {section: number; score: number}): number => {
    if (b.score !== a.score) return b.score - a.score;
    const x = a.section;
    const y = b.section;
    // Sections are numbered in record order, as their lead records are.
    return this.pageRank[y]! - this.pageRank[x]! || this.leadLevel[y]! - this.leadLevel[x]! || this.leadPosition[x]! - this.leadPosition[y]! || x - y;
  };

  /**
   * Ranked sections (one hit per URL) for a query, best first: the first `need` in order, and
   * how many match; `hits` holds the records of those from `from` on only (the page of hits
   * asked for: what is shown is chosen, and its records picked, only after ranking). The last
   * word matches as a prefix unless followed by a space.
   */
  search(
    query: string,
    facetFilters?: FacetFilters,
    need = Infinity,
    withHits = true,
    from = 0,
  ): {total: number; hits: RankedHit[]; sections: () => number[]; typoTerms: TypoTerms} {
    const prefixLast = !/\s$/.test(query);
    const pass = this.passes(facetFilters);
    this.typeOk = this.typeTestFor(facetFilters);
    const all = tokenizeQuery(query).slice(0, 30);
    // Stop words are dropped from the query, except a last word still being typed; the words of
    // a question ("how", "which", "does", "can I") are dropped wherever they stand, so that they
    // never decide the order, unless nothing else is left.
    const question = (t: string) => all.length > 1 && QUESTION_WORDS.has(t);
    const kept = all.filter((t, i) => !question(t) && (!STOP_WORDS.has(t) || (prefixLast && i === all.length - 1)));
    const {terms, finds} = this.withSynonyms(kept.length > 0 ? kept : all);
    let ranked: Scored[];
    let others: Int32Array = new Int32Array(0);
    let typoTerms: TypoTerms = new Map();
    // A sharded index's client ranks once to learn which records to fetch, then answers the
    // same query: the second ranking is the first, unless terms or records came in between.
    const rankKey = `${need}\u0000${query}\u0000${JSON.stringify(facetFilters ?? [])}`;
    const last = this.lastRanking;
    if (last && last.key === rankKey && last.loaded === this.loaded) {
      ({ranked, others, typoTerms} = last);
    } else if (terms.length === 0) {
      // No word: every section, in the index's own order of importance (the same every time).
      const key = JSON.stringify(facetFilters ?? []);
      let order = this.emptyCache.get(key);
      if (!order) {
        order = [] as Scored[];
        for (let s = 0; s < this.lead.length; s++) if (!pass || pass[s] === 1) order.push({section: s, score: 0});
        order.sort(this.compare);
        if (this.emptyCache.size > 50) this.emptyCache.clear();
        this.emptyCache.set(key, order);
      }
      ranked = order;
    } else {
      const exact = this.scoreTerms(terms, prefixLast, pass, need, false, finds);
      // (the words synonyms found, if any: the only words an exact match adds to typoTerms)
      ({ranked, others, typoTerms} = exact);
      const count = (r: {ranked: Scored[]; others: Int32Array}) => r.ranked.length + r.others.length;
      // Typos are forgiven only when the words as typed find too little (Algolia ranks typo
      // matches below exact ones anyway): looking them up costs more than the rest.
      if ((!exact.all || count(exact) < FUZZY_BELOW) && terms.some((t) => typosAllowed(t) > 0)) {
        const forgiving = this.scoreTerms(terms, prefixLast, pass, need, true, finds);
        if ((forgiving.all && !exact.all) || (forgiving.all === exact.all && count(forgiving) > count(exact))) {
          ({ranked, others, typoTerms} = forgiving);
        }
      }
    }
    if (this.sharded) this.lastRanking = {key: rankKey, loaded: this.loaded, ranked, others, typoTerms};
    const top = withHits ? ranked.slice(from, need) : [];
    // (a sharded index whose client gave up fetching: the hits it holds, never an error)
    const hits = top.filter(({section}) => this.lead[section] !== -1).map(({section, score}) => this.hitFor(section, score, terms, prefixLast, typoTerms));
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
    finds: Map<string, string[][]> | null = null,
  ): {all: boolean; ranked: Scored[]; others: Int32Array; typoTerms: Map<string, Set<string>>} {
    const typoTerms = new Map<string, Set<string>>();
    const touched = this.accumulate(terms, prefixLast, fuzzy, pass, typoTerms, finds);
    try {
      const all = (1 << terms.length) - 1;
      let full = 0;
      for (let j = 0; j < touched; j++) if (this.matched[this.touched[j]!] === all) full++;
      // No section holds every word: pages whose sections together do, and sections holding all
      // but one word, answer (see below) before any word alone may.
      let near = full === 0 && terms.length >= 2 ? this.nearMisses(touched, terms.length, all) : null;
      const any = full > 0;
      const required = any || (near !== null && near.length > 0) ? all : 0; // else OR: any word may match
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
      const scoreOf = (s: number): number => {
        const matched = this.matched[s]!;
        let score = this.acc[s]! * popcount(matched);
        // Like Algolia's first criterion: a match without typos beats one that needs them.
        score *= TYPO_WEIGHT ** popcount(matched & ~this.exact[s]!);
        if ((this.inHeading[s]! & matched) === matched) {
          // Every word is in a title or heading: the heading itself is the hit.
          score *= 2 * (1 + this.leadLevel[s]! / 200);
        }
        score *= 1 + 0.25 * Math.log(Math.max(1, perPage[this.pageOf[s]!]!));
        score *= 1 + Math.max(0, this.pageRank[s]!) / 100;
        return score;
      };
      const scores = new Float64Array(n);
      for (let j = 0; j < n; j++) scores[j] = scoreOf(sections[j]!);
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
        // How many words the best record of a section holds (one record: a heading with its
        // paragraph), for the sections not holding every word together.
        const together = new Map<number, number>();
        for (const r of checked) {
          if (this.matched[r.section] !== all) continue;
          const {words} = this.bestRecord(r.section, terms, prefixLast, typoTerms);
          if (words < terms.length) {
            spread.add(r);
            together.set(r.section, words);
          } else if (this.phraseIn(r.section, phrase)) r.score *= 1.5;
        }
        // (a phrase lifts a checked section, never above the unchecked ones it was above)
        ranked.sort(this.compare);
        const whole = ranked.slice(0, read).filter((r) => !spread.has(r));
        const unchecked = ranked.slice(read);
        if (whole.length + unchecked.length + o < FEW_ALL) {
          // Few sections hold every word in one record (a heading, or a paragraph under its
          // headings). Then, ranked below: sections holding every word in different paragraphs
          // and pages whose sections together hold every word; then sections holding all but one.
          near ??= this.nearMisses(touched, terms.length, all);
          const [pages = [], rest = []] = near;
          const wordsOf = (section: number) => {
            let w = together.get(section);
            if (w === undefined) together.set(section, (w = this.bestRecord(section, terms, prefixLast, typoTerms).words));
            return w;
          };
          // Most words together in one record first (as Algolia's proximity criterion), then score.
          const byProximity = (a: Scored, b: Scored) => wordsOf(b.section) - wordsOf(a.section) || this.compare(a, b);
          // A section whose title or headings name the query's subject (two of its words or
          // more, the section missing one word at most) ranks with the sections holding every
          // word, by score: "reporting API is disabled" finds the heading API_DISABLED above
          // paragraphs that only happen to hold "reporting" too.
          const inHeadings = (section: number) => popcount(this.inHeading[section]! & this.matched[section]!);
          // (more of the query's words in its headings than any section holding every word has,
          // one of them a word few headings hold: not the words of every page's title, "local API")
          const holdingAll = [...whole, ...spread];
          const fullBest = holdingAll.reduce((m, r) => Math.max(m, inHeadings(r.section)), 0);
          const topScore = holdingAll.reduce((m, r) => Math.max(m, r.score), 0);
          const rare = this.rareInHeadings(terms);
          const namesSubject = (section: number) =>
            inHeadings(section) >= 2 &&
            inHeadings(section) > fullBest &&
            (this.inHeading[section]! & this.matched[section]! & rare) !== 0 &&
            popcount(this.matched[section]!) >= terms.length - 1;
          const candidates = [...spread, ...pages.map((section) => ({section, score: scoreOf(section)})), ...rest.map((section) => ({section, score: scoreOf(section)}))];
          // (and scores above every section holding all the words: the words it lacks were the incidental ones)
          const subject = terms.length >= 3 ? candidates.filter((r) => r.score > topScore && namesSubject(r.section)) : [];
          const promoted = new Set(subject.map((r) => r.section));
          const tier1 = [...spread, ...pages.map((section) => ({section, score: scoreOf(section)}))].filter((r) => !promoted.has(r.section)).sort(byProximity);
          const tier2 = rest.filter((section) => !promoted.has(section)).map((section) => ({section, score: scoreOf(section)})).sort(this.compare);
          ranked = [...[...whole, ...subject].sort(this.compare), ...unchecked, ...tier1, ...tier2];
        } else if (whole.length > 0) {
          // Like per-paragraph records: a section whose words are only in different paragraphs
          // is no hit while many others hold them together.
          ranked = ranked.filter((r) => !spread.has(r));
          if (ranked.length < need && o > 0) {
            // Spread sections left too few: the next best join, in order.
            const more = Array.from(others.subarray(0, o), (section, j) => ({section, score: otherScores[j]!}));
            ranked.push(...more.sort(this.compare));
            o = 0;
          }
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
      const parts = r.type === 'content' ? [r.content] : LEVELS.slice(1).map((k) => r.hierarchy[k]);
      text = normalizeTerm(decodeEntities(parts.filter((p) => p !== null).join(' ')));
      this.plain[i] = text;
    }
    return text;
  }

  /**
   * Per query word, a test for "this plain text holds the word" (see bestRecord), made once per
   * query (the same terms and typo words, as objects) and asked for every record read.
   */
  private wordTests(terms: string[], prefixLast: boolean, typoTerms: TypoTerms): ((text: string) => boolean)[] {
    const memo = this.testsFor;
    if (memo && memo.terms === terms && memo.prefixLast === prefixLast && memo.typoTerms === typoTerms) return memo.tests;
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
    this.testsFor = {terms, prefixLast, typoTerms, tests};
    return tests;
  }

  /**
   * The record shown for a section: its heading if that holds every word, else the paragraph
   * that holds most of them with its headings (a choice among a few records, not a match), and
   * how many words that record holds.
   */
  private bestRecord(section: number, terms: string[], prefixLast: boolean, typoTerms: TypoTerms): {index: number; words: number} {
    const lead = this.lead[section]!;
    // Records not fetched yet (sharded): counted as holding every word.
    if (lead < 0) return {index: -1, words: terms.length};
    // A `type` filter: the hit is a record of a type it lets through (see passes).
    const typeOk = this.typeOk;
    const leadOk = !typeOk || typeOk(this.records[lead]!.type);
    const contentOk = !typeOk || typeOk('content');
    if (terms.length === 0 || (!leadOk && !contentOk)) {
      const first = leadOk || !contentOk ? lead : (this.members[section]!.find((i) => this.records[i]!.type === 'content') ?? lead);
      return {index: first, words: 0};
    }
    const tests = this.wordTests(terms, prefixLast, typoTerms);
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

  private hitFor(section: number, score: number, terms: string[], prefixLast: boolean, typoTerms: TypoTerms): RankedHit {
    const {index} = this.bestRecord(section, terms, prefixLast, typoTerms);
    if (index < 0) throw new Error(`the records of section ${section} are not loaded`);
    return {index, record: this.records[index]!, score};
  }

  /** Ranked, distinct by URL, filtered. The last word matches as a prefix unless followed by a space. */
  rank(query: string, facetFilters?: FacetFilters): RankedHit[] {
    return this.search(query, facetFilters).hits;
  }

  /** The record standing for a section (loaded ones only, in a sharded index). */
  leadRecord(section: number): SearchRecord {
    return this.records[this.lead[section]!]!;
  }

  /** Sections of the best hits of a query (a sharded index fetches their records before answering). */
  topSections(query: string, facetFilters: FacetFilters | undefined, need: number): number[] {
    return this.search(query, facetFilters, need, false).sections().slice(0, need);
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

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER_OR_DIGIT_BEFORE = /[\p{L}\p{N}]$/u;
const LETTER_OR_DIGIT_AT = /^[\p{L}\p{N}]/u;

/**
 * Whether `word` occurs in `text` with no letter or digit (a Unicode code point) right before or
 * after it: what `(?<![\p{L}\p{N}])word(?![\p{L}\p{N}])` finds.
 */
export function standsAlone(text: string, word: string): boolean {
  for (let i = text.indexOf(word); i >= 0; i = i < text.length ? text.indexOf(word, i + 1) : -1) {
    if (wordAt(text, word, i)) return true;
  }
  return false;
}

function wordAt(text: string, word: string, i: number): boolean {
  const end = i + word.length;
  if (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (c < 128 ? isWordChar(c) : LETTER_OR_DIGIT_BEFORE.test(text.slice(Math.max(0, i - 2), i))) return false;
  }
  if (end < text.length) {
    const c = text.charCodeAt(end);
    if (c < 128 ? isWordChar(c) : LETTER_OR_DIGIT_AT.test(text.slice(end, end + 2))) return false;
  }
  return true;
}

/** A letter or digit (of lowercased text: ASCII tested without a regex). */
function isWordChar(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  return LETTER_OR_DIGIT.test(String.fromCharCode(c));
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

/** A synonym's words as the engine matches a query's: its words without stop words (all of them when that leaves none). */
function synonymWords(text: string): string[] {
  const all = tokenizeQuery(text);
  const kept = all.filter((t) => !STOP_WORDS.has(t));
  return kept.length > 0 ? kept : all;
}
