/**
 * The DocSearch record's vocabulary, shared by the extractor, both publishers, the local engine and
 * the site: hierarchy levels, record types, facets, highlight tags, and where the local index
 * lives. No runtime dependency (the browser bundle imports this file): the zod schema of the
 * record itself is in schema.ts.
 */
export type {Hierarchy, SearchRecord} from './schema.ts';

export const LEVELS = ['lvl0', 'lvl1', 'lvl2', 'lvl3', 'lvl4', 'lvl5', 'lvl6'] as const;
export type Level = (typeof LEVELS)[number];

export const RECORD_TYPES = [...LEVELS, 'content'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** No record may be larger than this once serialised (long text is split by the extractor). */
export const MAX_RECORD_BYTES = 10_000;

/** The record attributes search can filter and count on (copied from `docsearch:*` metas, plus type). */
export const FACET_ATTRIBUTES = ['language', 'docusaurus_tag', 'version', 'type'] as const;

/** The index's default highlight tags (DocSearch's Docusaurus template), used when a query names none. */
export const HIGHLIGHT_PRE_TAG = '<span class="algolia-docsearch-suggestion--highlight">';
export const HIGHLIGHT_POST_TAG = '</span>';

/** The tags DocSearch's modal asks for in every query. */
export const MODAL_HIGHLIGHT_PRE_TAG = '<mark>';
export const MODAL_HIGHLIGHT_POST_TAG = '</mark>';

/** Where the local index lives inside a build folder (and so under the site's baseUrl). */
export const LOCAL_INDEX_PATH = 'search/local-index.json';
