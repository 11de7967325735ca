/**
 * The early search box's configuration, written by the build side (early-config.ts) into the
 * inline box and read by its answering module (client/early-search.ts). Types only.
 */
import type {LocalSearchClient, QueryParams} from 'docs-search';

export interface EarlyDocsPlugin {
  id: string;
  path: string;
  versions: {name: string; path: string; last: boolean}[];
}

/** What the build side (early-config.ts) writes into the inline box for this module. */
export interface EarlySearchConfig {
  indexUrl: string;
  /** The worker that fetches the index and answers (early-worker.ts). */
  workerUrl: string;
  indexName: string;
  locale: string;
  contextualSearch: boolean;
  /** `themeConfig.algolia.searchParameters` (facetFilters merged with the contextual ones). */
  searchParameters: QueryParams;
  docs: EarlyDocsPlugin[];
  /** The docs preferred-version storage: null when `docs.versionPersistence` is 'none'. */
  versionStorage: {type: 'localStorage' | 'sessionStorage'; namespace: string} | null;
  baseUrl: string;
  externalUrlRegex: string | null;
  replaceSearchResultPathname: {from: string; to: string} | null;
  texts: {
    errorTitle: string;
    errorHelp: string;
    noResults: string;
    /** The start screen's text when the reader has no recent or favourite searches. */
    noRecent: string;
    loading: string;
  };
  /** Milliseconds after which a download still running shows the error screen's texts. */
  slowAfterMs: number;
}

/** The page's one local search client, shared by the early box and the modal (window.__docsSearchEarly). */
export interface EarlyState {
  client: LocalSearchClient;
  indexUrl: string;
  /** The selection (index over all hits shown) and how many hits show, for the hand-off. */
  selected: number;
  count: number;
  query: string;
}

declare global {
  interface Window {
    __docsSearchEarly?: EarlyState;
    /** The engine's worker, started by the early box as it opened (shell.inline.js). */
    __docsSearchWorker?: {worker: Worker; url: string} | null;
  }
}
