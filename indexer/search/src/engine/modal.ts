/**
 * What DocSearch's modal asks and how it lays out the answer: its request for one keystroke and
 * its display order. Apart from the engine (answer.ts), so that code which only asks and shows
 * (the early search box of docusaurus-theme-docs-search, whose engine runs in a worker) can
 * import them without the engine.
 */
import {LEVELS, MODAL_HIGHLIGHT_POST_TAG, MODAL_HIGHLIGHT_PRE_TAG} from '../record/constants.ts';
import type {AlgoliaHit, QueryParams} from './answer.ts';

/**
 * The most a reader can type into DocSearch 3.9.0's modal: its input's `maxLength` (the site spec
 * fixes it too; the early search box holds as much). A longer question is asked as its start.
 */
export const MODAL_MAX_QUERY = 64;

/** The request DocSearch 3.9.0 sends for one keystroke on a wide screen (contextual search on). */
export function modalParams(query: string, snippetWords = 10): QueryParams {
  const levels = LEVELS.map((k) => `hierarchy.${k}`);
  return {
    query: query.slice(0, MODAL_MAX_QUERY),
    attributesToRetrieve: [...levels, 'content', 'type', 'url'],
    attributesToSnippet: [...levels.slice(1), 'content'].map((a) => `${a}:${snippetWords}`),
    snippetEllipsisText: '…',
    highlightPreTag: MODAL_HIGHLIGHT_PRE_TAG,
    highlightPostTag: MODAL_HIGHLIGHT_POST_TAG,
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
