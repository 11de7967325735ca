/**
 * The local search engine: ranks records for a query over MiniSearch's radix tree. Runs in Node
 * and in the browser: no `node:` imports and no runtime import of zod, so the browser bundle stays
 * small.
 */
import SearchableMap from 'minisearch/SearchableMap';
import {RECORD_TYPES, type SearchRecord} from '../record/constants.ts';
import {typosAllowed, type TypoTerms} from './text.ts';
import {synonymsOf, unpackRecords, type LocalIndexFile} from './index-file.ts';
import type {SectionTable, ShardPostings} from './shards.ts';
import type {Postings} from './fields.ts';
import {sectionsPassing, typeTestFor, type FacetFilters, type FacetRecord} from './facets.ts';
import {IndexBuilder, weighPostings} from './index-builder.ts';
import {RecordChooser, type RankedHit} from './shown-record.ts';
import {RANKING, ruleOn} from './ranking.ts';
import {parseQuery, type Query} from './query.ts';
import {Scratch} from './score.ts';
import {comparer, rankPass, type Ranking, type Scored} from './order.ts';

// The engine holds the index: its sections, terms and postings, filters, and caches of what is
// looked up again keystroke after keystroke. A query is a value (query.ts) and the ranking's
// steps are functions over it: parse (query.ts) → match and score (score.ts) → order (order.ts,
// tiers.ts); the record a hit shows is chosen in shown-record.ts, its highlights and snippets
// made in highlight.ts and answer.ts. Every number the ranking reads is in ranking.ts.
export {QUESTION_WORDS, STOP_WORDS, type Postings} from './fields.ts';
export {compileFacetFilters, facetValue, type FacetFilters, type FacetRecord} from './facets.ts';
export {IndexBuilder, looksLikeCode} from './index-builder.ts';
export {type RankedHit} from './shown-record.ts';
export {standsAlone} from './words.ts';
export {isIdentifier} from './query.ts';

// Hits are distinct by URL, so the engine indexes one document per URL (a section: a heading and
// the paragraphs under it) and picks the record to show only for the hits returned. Terms live
// in MiniSearch's radix tree (prefix and typo lookups); each term's postings are typed arrays
// with their BM25 weight computed at load, so a query only adds numbers.

export class LocalSearchEngine extends RecordChooser {
  // The fields the constructor assigns (in either branch) are declared, not defined empty first:
  // the browser bundle stays as small as it was before the engine was split into layers.
  /** Every record (a sharded index: only those of the sections loaded so far). */
  declare readonly records: SearchRecord[];
  /** Per section: its records (record indices, in order); sharded: once loaded. */
  declare readonly members: number[][];
  /** Per section: the record that stands for it (its heading, else its first record); -1 until loaded. */
  declare readonly lead: Int32Array;
  declare readonly pageOf: Int32Array;
  declare readonly pageCount: number;
  /** Per section, what ranking reads of its lead record (known before its records are). */
  declare readonly leadLevel: Int16Array;
  declare readonly leadPosition: Int32Array;
  declare readonly leadType: Uint8Array;
  declare readonly pageRank: Float32Array;
  /** Per page: its facet values. */
  declare readonly pageFacets: {language: string; docusaurus_tag: string; version?: string}[];
  /** Whether the index arrives in pieces (addShard, addRecords) rather than whole. */
  declare readonly sharded: boolean;
  /** MiniSearch's radix tree: term → term id. */
  declare readonly terms: SearchableMap<number>;
  private readonly filterCache = new Map<string, Uint8Array>();
  /** Rankings of the empty query per filter (never changed once made). */
  private readonly emptyCache = new Map<string, Scored[]>();
  /** Sharded: how many times terms or records were added (a ranking made before is stale). */
  private loaded = 0;
  /**
   * Sharded: the last ranking made, kept (a cache) because a sharded index's client ranks once to
   * learn which records to fetch, then answers the same query (see search).
   */
  private lastRanking: {key: string; loaded: number; ranked: Scored[]; others: Int32Array; typoTerms: TypoTerms; typoWords: string[]} | null = null;
  /** Scratch arrays not lent to a query now (see borrow). */
  private readonly spare: Scratch[] = [];

  /** `source`: the records, a sharded index's section table, or a builder the records were added to. */
  constructor(source: readonly SearchRecord[] | SectionTable | IndexBuilder) {
    super();
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
      this.namesFromIndex();
      return;
    }
    const built = (source instanceof IndexBuilder ? source : IndexBuilder.of(source as readonly SearchRecord[])).finish();
    this.sharded = false;
    this.records = built.records;
    this.members = built.members;
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
    weighPostings(built, this.postings);
    this.terms = built.terms;
  }

  /** Per-query arrays, one slot per section, lent to a query (order.ts) and given back cleared. */
  borrow(): Scratch {
    return this.spare.pop() ?? new Scratch(this.lead.length, this.pageCount);
  }

  /** Takes back arrays lent by borrow, clearing the first `touched` sections touched. */
  giveBack(scratch: Scratch, touched: number): void {
    scratch.clear(touched);
    this.spare.push(scratch);
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

  /** Sharded index: the postings of the terms of one shard (terms already known are kept), and what sections name of its words. */
  addTerms(postings: ShardPostings, names?: Record<string, unknown>): void {
    this.loaded++;
    if (names) this.termNames?.add(names);
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

  /** Whether a section's records are here (always, unless sharded). */
  hasRecords(section: number): boolean {
    return this.lead[section] !== -1;
  }

  /** What facets read of a section (its page's values, its lead record's type). */
  facetRecord(section: number): FacetRecord {
    return {...this.pageFacets[this.pageOf[section]!]!, type: RECORD_TYPES[this.leadType[section]!]!};
  }

  /** Per section, 1 when the filters let it through (see sectionsPassing); undefined: no filter. */
  private passes(filters: FacetFilters | undefined): Uint8Array | undefined {
    if (!filters || filters.length === 0) return undefined;
    const key = JSON.stringify(filters);
    let pass = this.filterCache.get(key);
    if (!pass) {
      pass = sectionsPassing(this, filters);
      if (this.filterCache.size > 50) this.filterCache.clear();
      this.filterCache.set(key, pass);
    }
    return pass;
  }

  /** Whether a section's page is outside the documentation (see RANKING.sitePageWeight). */
  isSitePage(section: number): boolean {
    return !this.pageFacets[this.pageOf[section]!]!.docusaurus_tag.startsWith('docs');
  }

  /**
   * Ranked sections (one hit per URL) for a query, best first: the first `need` in order, and
   * how many match; `hits` holds the records of those from `from` on only (the page of hits
   * asked for: what is shown is chosen, and its records picked, only after ranking). The last
   * word matches as a prefix unless followed by a space. `typoWords`: the query's words looked up
   * with their typos forgiven (none when the words as typed found enough; never a synonym's run).
   */
  search(
    query: string,
    facetFilters?: FacetFilters,
    need = Infinity,
    withHits = true,
    from = 0,
  ): {total: number; hits: RankedHit[]; sections: () => number[]; typoTerms: TypoTerms; typoWords: string[]} {
    const q: Query = {...parseQuery(this, query), pass: this.passes(facetFilters), typeOk: typeTestFor(facetFilters), need};
    const {terms, prefixLast} = q;
    let ranked: Scored[];
    let others: Int32Array = new Int32Array(0);
    let typoTerms: TypoTerms = new Map();
    let typoWords: string[] = [];
    // A sharded index's client ranks once to learn which records to fetch, then answers the
    // same query: the second ranking is the first, unless terms or records came in between.
    const rankKey = `${need}\u0000${query}\u0000${JSON.stringify(facetFilters ?? [])}`;
    const last = this.lastRanking;
    if (last && last.key === rankKey && last.loaded === this.loaded) {
      ({ranked, others, typoTerms, typoWords} = last);
    } else if (terms.length === 0) {
      ranked = this.everySection(facetFilters, q.pass);
    } else {
      const exact = rankPass(this, q, false);
      // (the words synonyms found, if any: the only words an exact match adds to typoTerms)
      ({ranked, others, typoTerms} = exact);
      // (the sections relaxation added, holding some words only, are not what the words found)
      const count = (r: Ranking) => r.ranked.length - r.relaxed + r.others.length;
      // Typos are forgiven only when the words as typed find too little (Algolia ranks typo
      // matches below exact ones anyway): looking them up costs more than the rest.
      if ((!ruleOn('typos-when-few') || !exact.all || count(exact) < RANKING.enough) && terms.some((t) => typosAllowed(t) > 0)) {
        const forgiving = rankPass(this, q, true);
        typoWords = terms.filter((t) => !t.includes(' ') && typosAllowed(t) > 0);
        if ((forgiving.all && !exact.all) || (forgiving.all === exact.all && count(forgiving) > count(exact))) {
          ({ranked, others, typoTerms} = forgiving);
        }
      }
    }
    if (this.sharded) this.lastRanking = {key: rankKey, loaded: this.loaded, ranked, others, typoTerms, typoWords};
    const top = withHits ? ranked.slice(from, need) : [];
    // (a sharded index whose client gave up fetching: the hits it holds, never an error)
    const reading = {terms, prefixLast, typoTerms, typeOk: q.typeOk};
    const hits = top.filter(({section}) => this.lead[section] !== -1).map(({section, score}) => this.hitFor(section, score, reading));
    const rest = others;
    return {
      total: ranked.length + rest.length,
      hits,
      sections: () => [...ranked.map((r) => r.section), ...rest],
      typoTerms,
      typoWords,
    };
  }

  /** No word: every section the filters let through, in the index's own order of importance (the same every time). */
  private everySection(facetFilters: FacetFilters | undefined, pass: Uint8Array | undefined): Scored[] {
    const key = JSON.stringify(facetFilters ?? []);
    let order = this.emptyCache.get(key);
    if (!order) {
      order = [] as Scored[];
      for (let s = 0; s < this.lead.length; s++) if (!pass || pass[s] === 1) order.push({section: s, score: 0});
      order.sort(comparer(this, [], new Set(), null));
      if (this.emptyCache.size > 50) this.emptyCache.clear();
      this.emptyCache.set(key, order);
    }
    return order;
  }

  /** Ranked, distinct by URL, filtered. The last word matches as a prefix unless followed by a space. */
  rank(query: string, facetFilters?: FacetFilters): RankedHit[] {
    return this.search(query, facetFilters).hits;
  }

  /** The record standing for a section (loaded ones only, in a sharded index). */
  leadRecord(section: number): SearchRecord {
    return this.records[this.lead[section]!]!;
  }

  /** Sections of the best hits of a query and its typoWords (a sharded index fetches their records and typos' terms first). */
  topSections(query: string, facetFilters: FacetFilters | undefined, need: number): {sections: number[]; typoWords: string[]} {
    const {sections, typoWords} = this.search(query, facetFilters, need, false);
    return {sections: sections().slice(0, need), typoWords};
  }
}
