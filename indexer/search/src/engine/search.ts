/**
 * The local search engine: ranks records for a query over MiniSearch's radix tree. Runs in Node
 * and in the browser: no `node:` imports and no runtime import of zod, so the browser bundle stays
 * small.
 */
import SearchableMap from 'minisearch/SearchableMap';
import {RECORD_TYPES, type SearchRecord} from '../record/constants.ts';
import {remembered, typosAllowed, type TypoTerms} from './text.ts';
import {synonymsOf, unpackRecords, type LocalIndexFile} from './index-file.ts';
import type {SectionTable} from './shards.ts';
import {sectionsPassing, typeTestFor, type FacetFilters, type FacetRecord} from './facets.ts';
import {IndexBuilder, postingsWeigher} from './index-builder.ts';
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
// with their BM25 weights, made when a query first reads the term and kept, so a query only adds
// numbers.

/** What the engine reads of its sections and terms: built from the records, or (a sharded index, sharded-engine.ts) from a manifest. */
export interface EngineTables extends SectionTable {
  records: SearchRecord[];
  members: number[][];
  lead: Int32Array;
  pageCount: number;
  terms: SearchableMap<number>;
}

/** The ranking of one query, before its hits are made (see search). */
export interface QueryRanking {
  ranked: Scored[];
  others: Int32Array;
  typoTerms: TypoTerms;
  typoWords: string[];
}

export class LocalSearchEngine extends RecordChooser {
  // The fields the constructor assigns are declared, not defined empty first: the browser bundle
  // stays as small as it was before the engine was split into layers.
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
  /** MiniSearch's radix tree: term → term id. */
  declare readonly terms: SearchableMap<number>;
  private readonly filterCache = new Map<string, Uint8Array>();
  /** Rankings of the empty query per filter (never changed once made). */
  private readonly emptyCache = new Map<string, Scored[]>();
  /** Scratch arrays not lent to a query now (see borrow). */
  private readonly spare: Scratch[] = [];

  /**
   * `source`: the records, or a builder the records were added to; a sharded index's engine
   * (sharded-engine.ts) passes its tables, its terms and records added as they are fetched.
   */
  constructor(source: readonly SearchRecord[] | IndexBuilder | EngineTables) {
    super();
    if (!Array.isArray(source) && !(source instanceof IndexBuilder)) {
      Object.assign(this, source);
      return;
    }
    const built = (source instanceof IndexBuilder ? source : IndexBuilder.of(source as readonly SearchRecord[])).finish();
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
    // (every term has an id below the count: a synonym's run of words gets one above, see matching.ts)
    this.postings.length = built.terms.size;
    this.weigh = postingsWeigher(built);
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

  /** Number of sections (hits are distinct sections). */
  get sectionCount(): number {
    return this.lead.length;
  }

  /** What facets read of a section (its page's values, its lead record's type). */
  facetRecord(section: number): FacetRecord {
    return {...this.pageFacets[this.pageOf[section]!]!, type: RECORD_TYPES[this.leadType[section]!]!};
  }

  /** Per section, 1 when the filters let it through (see sectionsPassing); undefined: no filter. */
  private passes(filters: FacetFilters | undefined): Uint8Array | undefined {
    if (!filters || filters.length === 0) return undefined;
    return remembered(this.filterCache, 51, JSON.stringify(filters), () => sectionsPassing(this, filters));
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
    const {ranked, others, typoTerms, typoWords} = this.rankQuery(q, query, facetFilters);
    const top = withHits ? ranked.slice(from, need) : [];
    // (a sharded index whose client gave up fetching: the hits it holds, never an error)
    const reading = {terms, prefixLast, typoTerms, typeOk: q.typeOk};
    const hits = top.filter(({section}) => this.lead[section] !== -1).map(({section, score}) => this.hitFor(section, score, reading));
    return {
      total: ranked.length + others.length,
      hits,
      sections: () => [...ranked.map((r) => r.section), ...others],
      typoTerms,
      typoWords,
    };
  }

  /** The ranking of a parsed query (`query` and `facetFilters`: as asked, for a cache's key: see sharded-engine.ts). */
  protected rankQuery(q: Query, query: string, facetFilters: FacetFilters | undefined): QueryRanking {
    const {terms} = q;
    if (terms.length === 0) return {ranked: this.everySection(facetFilters, q.pass), others: new Int32Array(0), typoTerms: new Map(), typoWords: []};
    const exact = rankPass(this, q, false);
    // (the words synonyms found, if any: the only words an exact match adds to typoTerms)
    let {ranked, others, typoTerms} = exact;
    let typoWords: string[] = [];
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
    return {ranked, others, typoTerms, typoWords};
  }

  /** No word: every section the filters let through, in the index's own order of importance (the same every time). */
  private everySection(facetFilters: FacetFilters | undefined, pass: Uint8Array | undefined): Scored[] {
    return remembered(this.emptyCache, 51, JSON.stringify(facetFilters ?? []), () => {
      const order: Scored[] = [];
      for (let s = 0; s < this.lead.length; s++) if (!pass || pass[s] === 1) order.push({section: s, score: 0});
      return order.sort(comparer(this, [], new Set(), null));
    });
  }

  /** Ranked, distinct by URL, filtered. The last word matches as a prefix unless followed by a space. */
  rank(query: string, facetFilters?: FacetFilters): RankedHit[] {
    return this.search(query, facetFilters).hits;
  }

  /** The record standing for a section (loaded ones only, in a sharded index). */
  leadRecord(section: number): SearchRecord {
    return this.records[this.lead[section]!]!;
  }
}
