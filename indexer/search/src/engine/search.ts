/**
 * The local search engine: ranks records for a query over MiniSearch's radix tree. Runs in Node
 * and in the browser: no `node:` imports and no runtime import of zod, so the browser bundle stays
 * small.
 */
import SearchableMap from 'minisearch/SearchableMap';
import {LEVELS, type SearchRecord} from '../record/constants.ts';
import {decodeEntities, normalizeTerm, tokenizeQuery, tokenizeWholeAndParts, typosAllowed, type TypoTerms} from './text.ts';
import {unpackRecords} from './index-file.ts';

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

export function facetValue(r: SearchRecord, attr: string): string | undefined {
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
export function compileFacetFilters(filters: FacetFilters | undefined): (r: SearchRecord) => boolean {
  if (!filters || filters.length === 0) return () => true;
  const one = (f: string) => {
    const {attr, value, negate} = parseFilter(f);
    return (r: SearchRecord) => (facetValue(r, attr) === value) !== negate;
  };
  const groups = filters.map((f) => (Array.isArray(f) ? f.map(one) : [one(f)])).filter((g) => g.length > 0);
  return (r) => groups.every((g) => g.some((test) => test(r)));
}

export function matchesFacetFilters(r: SearchRecord, filters: FacetFilters | undefined): boolean {
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
  readonly records: SearchRecord[];
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

  constructor(records: SearchRecord[]) {
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
      LEVELS.forEach((k, f) => {
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
      const parts = r.type === 'content' ? [r.content] : LEVELS.slice(1).map((k) => r.hierarchy[k]);
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
  leadRecord(section: number): SearchRecord {
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
