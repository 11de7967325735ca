/**
 * The local search engine: ranks records for a query over MiniSearch's radix tree. Runs in Node
 * and in the browser: no `node:` imports and no runtime import of zod, so the browser bundle stays
 * small.
 */
import SearchableMap from 'minisearch/SearchableMap';
import {RECORD_TYPES, type RecordType, type SearchRecord} from '../record/constants.ts';
import {tokenizeQuery, typosAllowed, type TypoTerms} from './text.ts';
import {synonymsOf, unpackRecords, type LocalIndexFile} from './index-file.ts';
import type {SectionTable, ShardPostings} from './shards.ts';
import {FIELD_COUNT, isHeadingField, QUESTION_WORDS, STOP_WORDS, type Postings} from './fields.ts';
import {compileFacetFilters, parseFilter, type FacetFilters, type FacetRecord} from './facets.ts';
import {IndexBuilder, weighPostings} from './index-builder.ts';
import {RecordChooser, type RankedHit} from './shown-record.ts';
import {popcount} from './words.ts';
import {RANKING} from './ranking.ts';

// The engine's parts, each in its own module: indexing (index-builder.ts), matching
// (matching.ts), ranking (here), the record a hit shows (shown-record.ts); highlights and
// snippets are made from it in highlight.ts and answer.ts. The engine is one object built in
// layers: TermMatcher (matching) ← RecordChooser (the record shown) ← LocalSearchEngine (the
// index's sections, filters and ranking), so a query reads its state without indirection.
export {QUESTION_WORDS, STOP_WORDS, type Postings} from './fields.ts';
export {compileFacetFilters, facetValue, type FacetFilters, type FacetRecord} from './facets.ts';
export {IndexBuilder, looksLikeCode} from './index-builder.ts';
export {type RankedHit} from './shown-record.ts';
export {standsAlone} from './words.ts';

//
// Hits are distinct by URL, so the engine indexes one document per URL (a section: a heading and
// the paragraphs under it) and picks the record to show only for the hits returned. Terms live
// in MiniSearch's radix tree (prefix and typo lookups); each term's postings are typed arrays
// with their BM25 weight computed at load, so a query only adds numbers.

// Every number ranking reads is RANKING's (ranking.ts), where each says what it does.
const {typoPenalty: TYPO_WEIGHT, fewAll: FEW_ALL, relaxBelow: RELAX_BELOW, sitePageWeight: SITE_PAGE_WEIGHT, typedStopWordBelow: TYPED_STOP_WORD_BELOW, fuzzyBelow: FUZZY_BELOW, phraseChecked: PHRASE_CHECKED} = RANKING;

export class LocalSearchEngine extends RecordChooser {
  // The fields the constructor assigns (in either branch) are declared, not defined empty first:
  // the browser bundle stays as small as it was before the engine was split into layers.
  /** Every record (a sharded index: only those of the sections loaded so far). */
  declare readonly records: SearchRecord[];
  /** Per section: its records (record indices, in order); sharded: once loaded. */
  protected declare readonly members: number[][];
  /** Per section: the record that stands for it (its heading, else its first record); -1 until loaded. */
  protected declare readonly lead: Int32Array;
  private declare readonly pageOf: Int32Array;
  private declare readonly pageCount: number;
  /** Per section, what ranking reads of its lead record (known before its records are). */
  private declare readonly leadLevel: Int16Array;
  private declare readonly leadPosition: Int32Array;
  private declare readonly leadType: Uint8Array;
  private declare readonly pageRank: Float32Array;
  /** Per page: its facet values. */
  private declare readonly pageFacets: {language: string; docusaurus_tag: string; version?: string}[];
  /** Whether the index arrives in pieces (addShard, addRecords) rather than whole. */
  declare readonly sharded: boolean;
  /** MiniSearch's radix tree: term → term id. */
  protected declare readonly terms: SearchableMap<number>;
  private readonly filterCache = new Map<string, Uint8Array>();
  /** Rankings of the empty query per filter (never changed once made). */
  private readonly emptyCache = new Map<string, Scored[]>();
  /** Sharded: how many times terms or records were added (a ranking made before is stale). */
  private loaded = 0;
  /** Sharded: the last ranking made (see search). */
  private lastRanking: {key: string; loaded: number; ranked: Scored[]; others: Int32Array; typoTerms: TypoTerms} | null = null;
  // Per-query scratch space, one slot per section (per page: perPage), reset after each query;
  // made by allocateScratch, which the constructor calls (so declared only: no field is defined
  // empty first).
  private declare acc: Float64Array;
  private declare matched: Uint32Array;
  private declare inHeading: Uint32Array;
  private declare exact: Uint32Array;
  private declare touched: Int32Array;
  private declare perPage: Uint16Array;

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
    weighPostings(built, this.postings);
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
    const f = this.pageFacets[this.pageOf[section]!]!;
    return {...f, type: RECORD_TYPES[this.leadType[section]!]!};
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

  /** Whether a section's page is outside the documentation (see SITE_PAGE_WEIGHT). */
  private isSitePage(section: number): boolean {
    return !this.pageFacets[this.pageOf[section]!]!.docusaurus_tag.startsWith('docs');
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
    const most = Math.max(1, this.lead.length / RANKING.rareHeadingShare);
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
      const headingsOnly = prefix && terms[t]!.length <= RANKING.headingsOnlyPrefix;
      // (a run of words a synonym names, `kwh meter`, finds its words as typed too: the sections
      // holding each of them, as without the synonym and as Algolia, at RUN_WEIGHT as a synonym's run)
      const own = terms[t]!.includes(' ') ? this.synonymExpansions(terms[t]!.split(' ')) : this.expansions(terms[t]!, prefix, fuzzy);
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
    const pageMask = this.pageWords(touched);
    const best = new Map<number, number>();
    const nearSections: number[] = [];
    for (let j = 0; j < touched; j++) {
      const s = this.touched[j]!;
      const m = this.matched[s]!;
      const p = this.pageOf[s]!;
      if (m === all) best.set(p, -1); // this page already has a section with every word
      else {
        const b = best.get(p);
        if (b !== -1 && (b === undefined || this.acc[s]! * popcount(m) > this.acc[b]! * popcount(this.matched[b]!))) best.set(p, s);
        if (words >= RANKING.nearMissMinWords && popcount(m) === words - 1) nearSections.push(s);
      }
    }
    const pages: number[] = [];
    for (const [p, s] of best) if (s >= 0 && pageMask.get(p) === all) pages.push(s);
    const inPages = new Set(pages);
    const rest = nearSections.filter((s) => !inPages.has(s));
    return pages.length + rest.length > 0 ? [pages, rest] : [];
  }

  /** Per page of the touched sections: the query's words (bits) its sections hold together. */
  private pageWords(touched: number): Map<number, number> {
    const words = new Map<number, number>();
    for (let j = 0; j < touched; j++) {
      const s = this.touched[j]!;
      const p = this.pageOf[s]!;
      words.set(p, (words.get(p) ?? 0) | this.matched[s]!);
    }
    return words;
  }

  /**
   * Query relaxation: the touched sections not listed yet (not in `listed`, not in `others`),
   * holding most of the query's words but not all of them together, a word weighing its inverse
   * document frequency among the sections (a rare word the answer needs counts more than `api`
   * or `device`): those holding half the weight or more, most first, then by score; and, while
   * that still makes fewer than RELAX_BELOW hits, the sections holding less. They follow the
   * sections holding every word, so a question whose words are not all in one section still
   * finds the sections that answer part of it. (`listed[0]`: the hits so far.)
   */
  private relaxed(touched: number, words: number, listed: Scored[][], others: Int32Array, scoreOf: (s: number) => number): Scored[] {
    const seen = new Set<number>(others);
    for (const list of listed) for (const r of list) seen.add(r.section);
    const df = new Array<number>(words).fill(0);
    for (let j = 0; j < touched; j++) {
      const m = this.matched[this.touched[j]!]!;
      for (let k = 0; k < words; k++) if (m & (1 << k)) df[k]!++;
    }
    const sections = Math.max(1, this.lead.length);
    const idf = df.map((d) => Math.log(1 + sections / Math.max(1, d)));
    const total = idf.reduce((a, b) => a + b, 0) || 1;
    const coverage = (s: number) => {
      let c = 0;
      for (let k = 0; k < words; k++) if (this.matched[s]! & (1 << k)) c += idf[k]!;
      return c / total;
    };
    const out: (Scored & {coverage: number})[] = [];
    for (let j = 0; j < touched; j++) {
      const s = this.touched[j]!;
      if (!seen.has(s)) out.push({section: s, score: scoreOf(s), coverage: coverage(s)});
    }
    out.sort((a, b) => b.coverage - a.coverage || this.compare(a, b));
    // Most of the words (half their weight or more); fewer only while the hits are still too few.
    const most = out.filter((r) => r.coverage >= RANKING.relaxCoverage);
    return most.length + listed[0]!.length + others.length >= RELAX_BELOW ? most : out;
  }

  /**
   * The query's words that some section holds (as typed, in another form, through a typo or a
   * synonym), their bits renumbered in the scratch arrays: a word the index does not hold at all
   * (`homey`, the name of another product) can never be held by a section, so it is not required
   * (Algolia's removeWordsIfNoResults comes to the same). All words when none is held.
   */
  private withoutUnfound(terms: string[], touched: number): string[] {
    let seen = 0;
    for (let j = 0; j < touched; j++) seen |= this.matched[this.touched[j]!]!;
    const all = (1 << terms.length) - 1;
    if (seen === all || seen === 0) return terms;
    const map: number[] = [];
    const kept: string[] = [];
    terms.forEach((t, k) => {
      if (seen & (1 << k)) {
        map[k] = kept.length;
        kept.push(t);
      }
    });
    const remap = (m: number) => {
      let out = 0;
      for (let k = 0; k < terms.length; k++) if (m & (1 << k)) out |= 1 << map[k]!;
      return out;
    };
    for (let j = 0; j < touched; j++) {
      const s = this.touched[j]!;
      this.matched[s] = remap(this.matched[s]!);
      this.inHeading[s] = remap(this.inHeading[s]!);
      this.exact[s] = remap(this.exact[s]!);
    }
    return kept;
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

  /**
   * The identifier words of the query being ranked (`power_w`, `user:unauthorized`; `cycles`,
   * the one whole word of a query), and per
   * section how many of them it defines (see defines), counted when first compared.
   */
  private identifiers: string[] = [];
  /** Words the query typed as a path (`/api`): identifiers too, whatever their shape. */
  private pathWords = new Set<string>();
  private definedCount = new Map<number, number>();

  private definitions(section: number): number {
    let n = this.definedCount.get(section);
    if (n === undefined) {
      n = 0;
      for (const id of this.identifiers) if (this.defines(section, id, this.pathWords.has(id))) n++;
      this.definedCount.set(section, n);
    }
    return n;
  }

  /** The words of the query being ranked when headings equal to them rank first (see compare); null: none. */
  private exactTerms: string[] | null = null;
  private exactMemo = new Map<number, number>();

  /** 2: the section's own heading is the query, its words in order; 1: in another order; 0: not (see headingIs). */
  private isExact(section: number): number {
    let e = this.exactMemo.get(section);
    if (e === undefined) this.exactMemo.set(section, (e = this.headingIs(section, this.exactTerms!)));
    return e;
  }

  private compare = (a: {section: number; score: number}, b: {section: number; score: number}): number => {
    // A section that defines an identifier of the query (its heading or a table row names it)
    // ranks above the sections that quote it (examples, prose), whatever their scores.
    if (this.identifiers.length > 0) {
      const d = this.definitions(b.section) - this.definitions(a.section);
      if (d !== 0) return d;
    }
    // A section whose own heading is the query, word for word, ranks above the sections that
    // only hold its words (Algolia's exact criterion).
    if (this.exactTerms !== null) {
      const e = this.isExact(b.section) - this.isExact(a.section);
      if (e !== 0) return e;
    }
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
    // (a contraction's ending is no word: `doesn't` is `doesn`, `meter's` is `meter`)
    const all = tokenizeQuery(query.replace(/(\p{L})['\u2019](?:t|s|d|ll|re|ve|m)(?![\p{L}\p{N}])/giu, '$1')).slice(0, RANKING.maxWords);
    this.pathWords = new Set(Array.from(query.matchAll(/(?:^|\s)\/([^\s/][^\s]*)/g), (m) => tokenizeQuery(m[1]!)[0] ?? ''));
    // Stop words are dropped from the query, except a last word still being typed in a query of
    // one or two words (`the` may become `theme`; the `it` ending "where do I find it" ends a
    // question, see TYPED_STOP_WORD_BELOW); the words of a question ("how", "which", "does",
    // "can I") are dropped wherever they stand, so that they never decide the order, unless
    // nothing else is left.
    const question = (t: string) => all.length > 1 && QUESTION_WORDS.has(t);
    const typing = (i: number) => prefixLast && i === all.length - 1 && all.length < TYPED_STOP_WORD_BELOW;
    const kept = all.filter((t, i) => !question(t) && (!STOP_WORDS.has(t) || typing(i)));
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
      // (the sections relaxation added, holding some words only, are not what the words found)
      const count = (r: {ranked: Scored[]; others: Int32Array; relaxed: number}) => r.ranked.length - r.relaxed + r.others.length;
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
  ): {all: boolean; ranked: Scored[]; others: Int32Array; typoTerms: Map<string, Set<string>>; relaxed: number} {
    const typoTerms = new Map<string, Set<string>>();
    const touched = this.accumulate(terms, prefixLast, fuzzy, pass, typoTerms, finds);
    // (a word not found as typed may be a typo: dropped only once typos are forgiven, or when none may be)
    if (fuzzy || !terms.some((t) => typosAllowed(t) > 0)) terms = this.withoutUnfound(terms, touched);
    // (and a query of one whole word the index holds: a field named `cycles` or `type` is defined
    // by its table row, as `power_w` is)
    this.identifiers = terms.filter((t) => isIdentifier(t) || this.pathWords.has(t) || (terms.length === 1 && !t.includes(' ') && t.length >= RANKING.definedWordMinLength && this.terms.has(t)));
    this.definedCount.clear();
    // (the words as typed, a synonym's run of words split back into them: not for typos;
    // "Example response: P1 Meter" is the heading of `example response p1 meter`, where
    // `p1 meter` is one run)
    this.exactTerms = !fuzzy ? terms.flatMap((t) => t.split(' ')) : null;
    this.exactMemo.clear();
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
      // Answered as an OR of its words (no section holds every word, no page does, no section
      // holds all but one): a section counts as much as its page holds of the query's words,
      // each word alike (the page that answers, then its section): a page that says only one
      // of the words, however often, is not the page that answers.
      const pageWords = required === 0 && terms.length > 1 ? this.pageWords(touched) : null;
      const scoreOf = (s: number): number => {
        const matched = this.matched[s]!;
        let score = this.acc[s]! * popcount(matched);
        if (pageWords) score *= popcount(pageWords.get(this.pageOf[s]!)!) / terms.length;
        // Like Algolia's first criterion: a match without typos beats one that needs them.
        score *= TYPO_WEIGHT ** popcount(matched & ~this.exact[s]!);
        if ((this.inHeading[s]! & matched) === matched) {
          // Every word is in a title or heading: the heading itself is the hit.
          score *= RANKING.allInHeadings * (1 + this.leadLevel[s]! / RANKING.levelScale);
        }
        score *= 1 + RANKING.pageDensity * Math.log(Math.max(1, perPage[this.pageOf[s]!]!));
        score *= 1 + Math.max(0, this.pageRank[s]!) / RANKING.pageRankScale;
        if (this.isSitePage(s)) score *= SITE_PAGE_WEIGHT;
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
      /** How many of `ranked` (its last) were added by relaxation, holding some words only. */
      let relaxed = 0;
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
          } else if (this.phraseIn(r.section, phrase)) r.score *= RANKING.phraseBoost;
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
          // word, by score, when those hold the words only by chance, none of them in their
          // titles or headings: "reporting API is disabled" finds the heading API_DISABLED above
          // paragraphs that only happen to hold "reporting" too. A section holding every word
          // under a title naming one of them is on the subject: "plug in battery support" finds
          // the Batteries page, which says how to support the Plug-In Battery, before the
          // battery's field table (headed "Plug-In Battery fields", without "support").
          const inHeadings = (section: number) => popcount(this.inHeading[section]! & this.matched[section]!);
          const holdingAll = [...whole, ...spread];
          const namedByFull = holdingAll.some((r) => inHeadings(r.section) > 0);
          const topScore = holdingAll.reduce((m, r) => Math.max(m, r.score), 0);
          // (one of its heading words a word few headings hold: not the words of every page's
          // title, "local API")
          const rare = this.rareInHeadings(terms);
          const namesSubject = (section: number) =>
            inHeadings(section) >= RANKING.subjectHeadingWords &&
            (this.inHeading[section]! & this.matched[section]! & rare) !== 0 &&
            popcount(this.matched[section]!) >= terms.length - 1;
          const candidates = [...spread, ...pages.map((section) => ({section, score: scoreOf(section)})), ...rest.map((section) => ({section, score: scoreOf(section)}))];
          // (and scores above every section holding all the words: the words it lacks were the incidental ones)
          const subject = terms.length >= RANKING.nearMissMinWords && !namedByFull ? candidates.filter((r) => r.score > topScore && namesSubject(r.section)) : [];
          const promoted = new Set(subject.map((r) => r.section));
          const tier1 = [...spread, ...pages.map((section) => ({section, score: scoreOf(section)}))].filter((r) => !promoted.has(r.section)).sort(byProximity);
          const tier2 = rest.filter((section) => !promoted.has(section)).map((section) => ({section, score: scoreOf(section)})).sort(this.compare);
          ranked = [...[...whole, ...subject].sort(this.compare), ...unchecked, ...tier1, ...tier2];
          // Then every other section holding some of the words, those holding most of them
          // first, a word weighing more the fewer sections hold it (see relaxed).
          if (ranked.length + o < RELAX_BELOW) {
            const tier3 = this.relaxed(touched, terms.length, [ranked, tier1, tier2], others.subarray(0, o), scoreOf);
            relaxed = tier3.length;
            ranked.push(...tier3);
          }
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
      return {all: any, ranked, others: others.subarray(0, o), typoTerms, relaxed};
    } finally {
      this.reset(touched);
      this.identifiers = [];
      this.definedCount.clear();
      this.exactTerms = null;
      this.exactMemo.clear();
    }
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

/**
 * A query word that names an identifier: snake_case, dotted, colon or path-like
 * (`active_power_l1_w`, `hierarchy.lvl0`, `user:unauthorized`, `api/v2/batteries`), or three
 * parts or more joined by hyphens (`x-api-version`; not `plug-in` or `wi-fi`).
 */
export function isIdentifier(term: string): boolean {
  return !term.includes(' ') && (/[_:/.]/.test(term) || /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+){2,}$/u.test(term));
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

