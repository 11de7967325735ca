/**
 * The engine of a sharded index (format 3, see README.md): it starts from the manifest's section
 * table, and its terms and records are added as their files are fetched. Only the sharded index's
 * readers import it (shards.ts, and in the browser shard-loader.ts, a chunk of its own), so none
 * of this is in the code a one-file index loads.
 */
import SearchableMap from 'minisearch/SearchableMap';
import type {SearchRecord} from '../record/constants.ts';
import type {FacetFilters} from './facets.ts';
import {synonymWords} from './matching.ts';
import {TermNames} from './term-names.ts';
import type {Query} from './query.ts';
import {LocalSearchEngine, type QueryRanking} from './search.ts';
import type {SectionTable, ShardPostings} from './shards.ts';

export class ShardedEngine extends LocalSearchEngine {
  /**
   * What sections name of the words of the terms files fetched (see names.ts): ranking reads it
   * before, or without, the sections' records.
   */
  private readonly termNames = new TermNames();
  /** How many times terms or records were added (a ranking made before is stale). */
  private loaded = 0;
  /**
   * The last ranking made, kept (a cache) because the client ranks once to learn which records
   * to fetch, then answers the same query (see rankQuery).
   */
  private lastRanking: (QueryRanking & {key: string; loaded: number}) | null = null;

  /** The section table now; terms and records as they are fetched (addTerms, addRecords). */
  constructor(t: SectionTable) {
    super({
      records: [],
      members: [],
      lead: new Int32Array(t.pageOf.length).fill(-1),
      pageOf: t.pageOf,
      pageCount: t.pageFacets.length,
      leadLevel: t.leadLevel,
      leadPosition: t.leadPosition,
      leadType: t.leadType,
      pageRank: t.pageRank,
      pageFacets: t.pageFacets,
      terms: new SearchableMap<number>(),
    });
  }

  /** The postings of the terms of one shard (terms already known are kept), and what sections name of its words. */
  addTerms(postings: ShardPostings, names?: Record<string, unknown>): void {
    this.loaded++;
    if (names) this.termNames.add(names);
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

  /** The records of consecutive sections from `firstSection` on, in order. */
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

  /** Whether a section's records are here. */
  hasRecords(section: number): boolean {
    return this.lead[section] !== -1;
  }

  // Names come from the terms files, not from the records (which may not be here): the same
  // facts, written from the records at build time (names.ts).
  override defines(section: number, id: string, path = false): boolean {
    return this.termNames.defines(section, id, path);
  }

  override headingIs(section: number, terms: readonly string[]): number {
    return this.termNames.headingIs(section, terms);
  }

  /** The second ranking of a query is the first, unless terms or records came in between. */
  protected override rankQuery(q: Query, query: string, facetFilters: FacetFilters | undefined): QueryRanking {
    const key = `${q.need}\u0000${query}\u0000${JSON.stringify(facetFilters ?? [])}`;
    const last = this.lastRanking;
    if (last && last.key === key && last.loaded === this.loaded) return last;
    const ranking = super.rankQuery(q, query, facetFilters);
    this.lastRanking = {...ranking, key, loaded: this.loaded};
    return ranking;
  }

  /** Every word the synonyms of a query's words find (their terms files are fetched too). */
  synonymWordsOf(query: string): string[] {
    const {finds} = this.withSynonyms(synonymWords(query));
    return finds ? [...new Set([...finds.values()].flat(2))] : [];
  }

  /** Sections of the best hits of a query and its typoWords (the client fetches their records and typos' terms first). */
  topSections(query: string, facetFilters: FacetFilters | undefined, need: number): {sections: number[]; typoWords: string[]} {
    const {sections, typoWords} = this.search(query, facetFilters, need, false);
    return {sections: sections().slice(0, need), typoWords};
  }
}
