/**
 * The "Unable to fetch results" screen of the DocSearch 3.9 modal, shown when a search fails.
 *
 * DocSearch sets its status to `error` when the search client rejects with a `RetryError` (every
 * host failed; our local client rejects the same way when the index cannot be fetched), but the
 * @algolia/autocomplete-core it bundles ends every request with `.finally(() => setStatus('idle'))`,
 * which overwrites it: the modal showed "No results for …" instead (upstream: autocomplete-core
 * 1.17.9, still so in 1.19). Nothing outside the bundle can reach that status, so the modal's own
 * props do the work instead of an edit of the bundle:
 * - `trackFailures` wraps the search client DocSearch builds (`transformSearchClient`) and reports
 *   whether the latest request failed; a failed request answers DocSearch with no hits instead of
 *   an error that nothing catches;
 * - `SearchFailureScreen` then renders DocSearch's error screen (its markup, classes and
 *   translations) into the modal's dropdown, and hides what DocSearch shows there meanwhile
 *   (styles.css, `[data-search-failed]`), until the next input, reset or search.
 */
import React, {useEffect, useState, type ReactNode} from 'react';
import {createPortal} from 'react-dom';
import type {DocSearchTransformClient} from '@docsearch/react';

/** Marks the modal's dropdown while the failure screen shows (styles.css hides DocSearch's screen). */
const FAILED_ATTRIBUTE = 'data-search-failed';

type Listener = (failed: boolean) => void;

/** Whether the latest search of a modal failed, for the modal's wrapper to render. */
export interface FailureTracker {
  /** Wraps DocSearch's search client: each search reports success or a `RetryError` here. */
  wrap(client: DocSearchTransformClient): DocSearchTransformClient;
  /** Forgets the failure (the query changed). */
  clear(): void;
  subscribe(listener: Listener): () => void;
}

/** What the search client answers when nothing was found: one empty result per request. */
function emptyAnswer(requests: unknown): Awaited<ReturnType<DocSearchTransformClient['search']>> {
  const list = Array.isArray(requests) ? requests : ((requests as {requests?: unknown[]} | undefined)?.requests ?? [{}]);
  const results = list.map((request) => ({
    hits: [],
    nbHits: 0,
    page: 0,
    nbPages: 0,
    hitsPerPage: 0,
    exhaustiveNbHits: true,
    processingTimeMS: 0,
    query: String((request as {query?: unknown} | undefined)?.query ?? ''),
    params: '',
  }));
  return {results} as unknown as Awaited<ReturnType<DocSearchTransformClient['search']>>;
}

export function createFailureTracker(): FailureTracker {
  const listeners = new Set<Listener>();
  let latest = 0;
  let failed = false;
  const set = (value: boolean) => {
    if (value === failed) return;
    failed = value;
    for (const listener of listeners) listener(value);
  };
  return {
    wrap(client) {
      const search = client.search.bind(client);
      return Object.assign(Object.create(client) as DocSearchTransformClient, {
        search: ((...args: Parameters<typeof search>) => {
          const request = ++latest;
          set(false);
          return search(...args).then(
            (response) => {
              if (request === latest) set(false);
              return response;
            },
            () => {
              // No host answered (RetryError), or one refused: the error screen, and an empty
              // answer for DocSearch. Rethrown, the error reached no handler (DocSearch rethrows
              // it too): an uncaught error in the page on every search while offline.
              if (request === latest) set(true);
              return emptyAnswer(args[0]);
            },
          );
        }) as typeof search,
      });
    },
    clear: () => set(false),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface ErrorScreenTranslations {
  titleText?: string;
  helpText?: string;
}

/** DocSearch 3.9's ErrorScreen icon. */
function ErrorIcon(): ReactNode {
  return (
    <svg width="40" height="40" viewBox="0 0 20 20" fill="none" fillRule="evenodd" stroke="currentColor" strokeLinecap="round" strokeLinejoin="round">
      <path d="M19 4.8a16 16 0 00-2-1.2m-3.3-1.2A16 16 0 001.1 4.7M16.7 8a12 12 0 00-2.8-1.4M10 6a12 12 0 00-6.7 2M12.3 14.7a4 4 0 00-4.5 0M14.5 11.4A8 8 0 0010 10M3 16L18 2M10 18h0" />
    </svg>
  );
}

/**
 * DocSearch's error screen, in the dropdown of the modal rendered inside `root`, while the latest
 * search failed. Typing, clearing the query (the form's reset) or a new search takes it away.
 */
export function SearchFailureScreen({
  tracker,
  root,
  translations = {},
}: {
  tracker: FailureTracker;
  root: HTMLElement;
  translations?: ErrorScreenTranslations;
}): ReactNode {
  const [failed, setFailed] = useState(false);
  useEffect(() => tracker.subscribe(setFailed), [tracker]);
  useEffect(() => {
    // A new query is on its way, or the query is gone (the clear button resets the form).
    const clear = () => tracker.clear();
    root.addEventListener('input', clear);
    root.addEventListener('reset', clear);
    return () => {
      root.removeEventListener('input', clear);
      root.removeEventListener('reset', clear);
    };
  }, [tracker, root]);

  const dropdown = failed ? root.querySelector<HTMLElement>('.DocSearch-Dropdown') : null;
  useEffect(() => {
    if (!dropdown) return undefined;
    dropdown.setAttribute(FAILED_ATTRIBUTE, '');
    return () => dropdown.removeAttribute(FAILED_ATTRIBUTE);
  }, [dropdown]);
  if (!dropdown) return null;
  return createPortal(
    <div className="DocSearch-ErrorScreen docs-search-error-screen">
      <div className="DocSearch-Screen-Icon">
        <ErrorIcon />
      </div>
      <p className="DocSearch-Title">{translations.titleText ?? 'Unable to fetch results'}</p>
      <p className="DocSearch-Help">{translations.helpText ?? 'You might want to check your network connection.'}</p>
    </div>,
    dropdown,
  );
}
