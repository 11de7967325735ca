/**
 * Algolia-shaped answers: turns the engine's ranked records into the response DocSearch's modal
 * and Docusaurus's search page read (hits, highlights, snippets, facets, pages).
 */
import {FACET_ATTRIBUTES, HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG, LEVELS, type Level, type SearchRecord} from '../record/constants.ts';
import {remembered, tokenizeQuery} from './text.ts';
import {createMatcher, fitsSnippet, highlight, snippet, type HighlightOptions, type HighlightValue} from './highlight.ts';
import {facetValue, LocalSearchEngine, type FacetFilters} from './search.ts';


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

export interface AlgoliaHit extends Partial<SearchRecord> {
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

const HIGHLIGHTABLE = [...LEVELS.map((k) => `hierarchy.${k}`), 'content'];

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

export function normalizeFacetFilters(f: QueryParams['facetFilters']): FacetFilters | undefined {
  if (f === undefined) return undefined;
  if (typeof f === 'string') {
    const s = f.trim();
    if (s.startsWith('[')) return JSON.parse(s) as FacetFilters;
    return [s];
  }
  return f;
}

/** snippetSpec's answers by their arguments (a modal asks the same at every keystroke); read only. */
const snippetSpecs = new Map<string, ReadonlyMap<string, number>>();

/** Expands `hierarchy` / `*` patterns of attribute lists; `content:10` → [content, 10]. */
function snippetSpec(list: string[], fallbackWords: number): ReadonlyMap<string, number> {
  return remembered(snippetSpecs, 50, `${fallbackWords}\u0000${list.join('\u0000')}`, () => makeSnippetSpec(list, fallbackWords));
}

function makeSnippetSpec(list: string[], fallbackWords: number): Map<string, number> {
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
  // Ranked first; records are picked, highlighted and snippeted for the page asked for only.
  const {total, hits: pageHits, sections, typoTerms} = engine.search(query, facetFilters, hitsPerPage > 0 ? (page + 1) * hitsPerPage : 0, true, page * hitsPerPage);
  const terms = tokenizeQuery(query);
  const prefixLast = !/\s$/.test(query);
  const hl: HighlightOptions = {
    terms,
    prefixLast,
    preTag: params.highlightPreTag ?? HIGHLIGHT_PRE_TAG,
    postTag: params.highlightPostTag ?? HIGHLIGHT_POST_TAG,
    matcher: createMatcher(terms, prefixLast, typoTerms),
    cache: new Map(),
  };
  const ellipsis = params.snippetEllipsisText ?? '…';
  const toSnippet = snippetSpec(asList(params.attributesToSnippet) ?? DEFAULT_ATTRIBUTES_TO_SNIPPET, defaults.snippetWords ?? 10);
  const toHighlight = asList(params.attributesToHighlight);
  const toRetrieve = asList(params.attributesToRetrieve);

  const nbHits = total;
  const nbPages = hitsPerPage > 0 ? Math.ceil(nbHits / hitsPerPage) : 0;
  const slice = hitsPerPage > 0 ? pageHits : [];
  // What to copy, highlight and snippet is the same for every hit: decided once per query.
  const recordKeys = slice.length > 0 ? Object.keys(slice[0]!.record).filter((k) => k !== 'objectID') : [];
  const retrieved = new Set(recordKeys.filter((key) => wanted(toRetrieve, key)));
  const partialLevels =
    toRetrieve && !retrieved.has('hierarchy') && toRetrieve.some((a) => a.startsWith('hierarchy.'))
      ? LEVELS.filter((k) => wanted(toRetrieve, `hierarchy.${k}`))
      : null;
  const snippetOpts = {...hl, ellipsis};
  const attrs = HIGHLIGHTABLE.map((attr) => ({
    attr,
    level: attr === 'content' ? null : (attr.slice('hierarchy.'.length) as Level),
    highlight: !toHighlight || wanted(toHighlight, attr),
    words: toSnippet.get(attr),
  })).filter((a) => a.highlight || a.words !== undefined);
  // Hits of one page share titles (lvl0, the page's lvl1): each text is marked up once, and
  // every hit gets its own copy.
  const highlighted = new Map<string, HighlightValue>();
  const snippets = new Map<number, Map<string, HighlightValue>>();
  const highlightOf = (text: string): HighlightValue => {
    let v = highlighted.get(text);
    if (!v) highlighted.set(text, (v = highlight(text, hl)));
    return v;
  };
  const snippetOf = (words: number, text: string): HighlightValue => {
    let byText = snippets.get(words);
    if (!byText) snippets.set(words, (byText = new Map()));
    let v = byText.get(text);
    if (!v) {
      // A text of at most `words` words is its own snippet: the highlighted text, made once.
      if (!fitsSnippet(text, words)) v = snippet(text, words, snippetOpts);
      else {
        const {value, matchLevel, matchedWords} = highlightOf(text);
        v = {value, matchLevel, matchedWords};
      }
      byText.set(text, v);
    }
    return v;
  };
  const hits = slice.map(({record}) => {
    const hit: AlgoliaHit = {objectID: record.objectID};
    for (const key of Object.keys(record)) {
      if (retrieved.has(key)) (hit as Record<string, unknown>)[key] = record[key as keyof SearchRecord];
    }
    if (partialLevels) {
      hit.hierarchy = Object.fromEntries(partialLevels.map((k) => [k, record.hierarchy[k]])) as SearchRecord['hierarchy'];
    }
    // Computed for the hits of the page asked for only (ranked first, then sliced), and only
    // for the attributes asked for. Making them lazy as well (getters that keep their value)
    // cost more than it saved, measured at 23 pages (1.25 against 0.94 ms CPU a query, reading
    // what the modal renders).
    const highlightResult: Record<string, unknown> = {};
    const snippetResult: Record<string, unknown> = {};
    let highlightLevels: Record<string, unknown> | undefined;
    let snippetLevels: Record<string, unknown> | undefined;
    for (const {level, highlight: hlWanted, words} of attrs) {
      const text = level === null ? record.content : record.hierarchy[level];
      if (text === null) continue;
      if (hlWanted) {
        const target = level === null ? highlightResult : (highlightLevels ??= highlightResult.hierarchy = {}) as Record<string, unknown>;
        target[level ?? 'content'] = copyValue(highlightOf(text));
      }
      if (words !== undefined) {
        const target = level === null ? snippetResult : (snippetLevels ??= snippetResult.hierarchy = {}) as Record<string, unknown>;
        target[level ?? 'content'] = copyValue(snippetOf(words, text));
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
    const names = facets.includes('*') ? [...FACET_ATTRIBUTES] : facets;
    for (const name of names) {
      const c: Record<string, number> = {};
      for (const section of sections()) {
        const record = engine.facetRecord(section);
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

/** A hit's own copy of a highlight or snippet value (the same keys, in the same order). */
function copyValue(v: HighlightValue): HighlightValue {
  return {...v, matchedWords: v.matchedWords.slice()};
}

/** Encoded parameter values other than strings, by their JSON (a modal sends the same at every keystroke). */
const encodedValues = new Map<string, string>();

function encodeParams(params: QueryParams): string {
  let out = '';
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    let value: string;
    if (typeof v === 'string') value = encodeURIComponent(v);
    else {
      const json = JSON.stringify(v);
      value = remembered(encodedValues, 200, json, () => encodeURIComponent(json));
    }
    out += `${out === '' ? '' : '&'}${encodeURIComponent(k)}=${value}`;
  }
  return out;
}

function pseudoQueryId(query: string): string {
  let h = 0x811c9dc5;
  for (const ch of query) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0').repeat(4);
}

// The modal's request and display order: in modal.ts, which a page can load without the engine.
export {MODAL_MAX_QUERY, modalOrder, modalParams} from './modal.ts';
