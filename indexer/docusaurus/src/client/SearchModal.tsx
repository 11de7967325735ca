/**
 * The DocSearch 3.9 modal as Docusaurus's SearchBar configures it, in its own chunk: loaded on
 * first use by useSearchLauncher. Local mode hands DocSearch the local client (nothing leaves
 * the origin, insights off); Algolia mode keeps the stock client.
 */
import React, {useCallback, useEffect, useLayoutEffect, useMemo, useState, type ReactNode} from 'react';
import {createPortal} from 'react-dom';
import {DocSearchModal} from '@docsearch/react/modal.js';
import type {DocSearchHit, DocSearchModalProps, DocSearchTransformClient, InternalDocSearchHit, StoredDocSearchHit} from '@docsearch/react';
import '@docsearch/css/dist/modal.css';
import Link from '@docusaurus/Link';
import {useHistory} from '@docusaurus/router';
import {isRegexpStringMatch, useSearchLinkCreator} from '@docusaurus/theme-common';
import type {ThemeConfigAlgolia} from '@docusaurus/theme-search-algolia';
import Translate from '@docusaurus/Translate';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import translations from '@theme/SearchTranslations';
import {getLocalSearchClient} from './localSearch.ts';
import {missingResultsUrl, type SearchSettings} from './searchConfig.ts';
import {handOffTo} from './shell.ts';
import {createFailureTracker, SearchFailureScreen, type FailureTracker} from './searchFailure.tsx';
import {watchModalSemantics} from './modalSemantics.ts';
import {useAlgoliaContextualFacetFilters, useSearchResultUrlProcessor} from './algoliaConfig.ts';
import {DevServerText} from './devServerText.tsx';

export interface SearchModalProps {
  /** `themeConfig.algolia` with the SearchBar's props on top, as the stock SearchBar merges them. */
  config: ThemeConfigAlgolia;
  settings: SearchSettings;
  initialQuery?: string;
  onClose: () => void;
}

/** DocSearch renders into a container at the start of <body>, created once. */
let container: HTMLDivElement | undefined;
function getContainer(): HTMLDivElement {
  if (!container) {
    container = document.createElement('div');
    document.body.insertBefore(container, document.body.firstChild);
  }
  return container;
}

function useNavigator(externalUrlRegex: string | undefined): DocSearchModalProps['navigator'] {
  const history = useHistory();
  return useMemo(
    () => ({
      navigate({itemUrl}: {itemUrl: string}) {
        // Hits on another site cannot go through the router.
        if (isRegexpStringMatch(externalUrlRegex, itemUrl)) window.location.href = itemUrl;
        else history.push(itemUrl);
      },
    }),
    [externalUrlRegex, history],
  );
}

function useTransformSearchClient(
  settings: SearchSettings,
  failures: FailureTracker,
): (searchClient: DocSearchTransformClient) => DocSearchTransformClient {
  const {siteMetadata} = useDocusaurusContext();
  const docusaurusVersion = siteMetadata.docusaurusVersion;
  return useCallback(
    (searchClient: DocSearchTransformClient) => {
      if (settings.mode === 'local') return failures.wrap(getLocalSearchClient(settings.indexUrl) as unknown as DocSearchTransformClient);
      searchClient.addAlgoliaAgent('docusaurus', docusaurusVersion);
      return failures.wrap(searchClient);
    },
    [settings.mode, settings.indexUrl, docusaurusVersion, failures],
  );
}

/**
 * Contextual facet filters merged with the configured ones. Docusaurus's hook returns new arrays
 * on every render, and DocSearch re-creates its autocomplete (dropping the start screen's recent
 * and favourite searches until the next key press) whenever `searchParameters` changes identity:
 * keep the same object while the value is the same.
 */
function useSearchParameters(config: ThemeConfigAlgolia): DocSearchModalProps['searchParameters'] {
  const contextualFacetFilters = useAlgoliaContextualFacetFilters();
  const configFacetFilters = config.searchParameters?.facetFilters ?? [];
  const facetFilters = config.contextualSearch
    ? mergeFacetFilters(contextualFacetFilters, configFacetFilters)
    : configFacetFilters;
  const value = {...config.searchParameters, facetFilters};
  const key = JSON.stringify(value);
  // Keyed on the serialized value on purpose.
  return useMemo(() => value, [key]);
}

type FacetFilters = NonNullable<NonNullable<ThemeConfigAlgolia['searchParameters']>['facetFilters']>;

/**
 * Contextual facet filters, then the configured ones, as the stock SearchBar merges them. Written
 * here: the stock theme exports its helper only since 3.9, and this theme imports nothing from
 * `@docusaurus/theme-search-algolia/client` (algoliaConfig.ts says why).
 */
function mergeFacetFilters(first: FacetFilters, second: FacetFilters): FacetFilters {
  const asList = (filters: FacetFilters) => (typeof filters === 'string' ? [filters] : filters);
  return [...asList(first), ...asList(second)] as FacetFilters;
}

type HitProps = {hit: InternalDocSearchHit | StoredDocSearchHit; children: ReactNode};

/**
 * A hit's content, inside DocSearch's `li[role=option]`. No link there: an option's content is
 * presentational, and a focusable element in it is a control that screen readers never reach
 * (axe nested-interactive). The option is what the keyboard selects and Enter opens (DocSearch's
 * `navigator`); a click here opens the hit the same way, a middle or modified click in a new tab
 * (DocSearch then keeps the modal open). `data-href` says where it goes. The element stays an
 * `<a>` (with no href: neither focusable nor a link) so DocSearch's stylesheet draws it as before.
 */
function useHitComponent(externalUrlRegex: string | undefined): (props: HitProps) => React.JSX.Element {
  const history = useHistory();
  return useMemo(
    () =>
      function Hit({hit, children}: HitProps) {
        const open = (event: React.MouseEvent<HTMLAnchorElement>) => {
          if (event.button > 1) return;
          if (event.button === 1 || event.ctrlKey || event.metaKey || event.shiftKey) {
            window.open(hit.url, '_blank', 'noopener');
          } else if (isRegexpStringMatch(externalUrlRegex, hit.url)) {
            window.location.href = hit.url;
          } else {
            history.push(hit.url);
          }
        };
        return (
          <a className="docs-search-hit" data-href={hit.url} onClick={open} onAuxClick={open}>
            {children}
          </a>
        );
      },
    [externalUrlRegex, history],
  );
}

function ResultsFooter({query, nbHits, onClose}: {query: string; nbHits: number; onClose: () => void}) {
  const createSearchLink = useSearchLinkCreator();
  return (
    <Link to={createSearchLink(query)} onClick={onClose}>
      <Translate id="theme.SearchBar.seeAll" values={{count: nbHits}}>
        {'See all {count} results'}
      </Translate>
    </Link>
  );
}

/**
 * `docusaurus start` builds no index (it is made from the built pages): instead of a modal whose
 * every search fails, a dialog in the modal's place says how to get search.
 */
function DevServerNotice({placeholder, onClose}: {placeholder: string; onClose: () => void}): ReactNode {
  // Before the browser paints (and before any other task can look): never the shell and this
  // dialog at once.
  useLayoutEffect(() => handOffTo(null), []);
  return createPortal(
    <div
      className="DocSearch DocSearch-Container"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}>
      <div className="DocSearch-Modal docs-search-dev-notice" role="dialog" aria-modal="true" aria-label={placeholder}>
        <div className="DocSearch-Dropdown">
          <div className="DocSearch-StartScreen">
            <p className="DocSearch-Help">
              <DevServerText />
            </p>
          </div>
        </div>
        <div className="DocSearch-Footer">
          <button type="button" className="DocSearch-Cancel docs-search-dev-notice__close" onClick={onClose} autoFocus>
            {translations.modal?.searchBox?.cancelButtonText ?? 'Cancel'}
          </button>
        </div>
      </div>
    </div>,
    getContainer(),
  );
}

export default function SearchModal(props: SearchModalProps): ReactNode {
  if (props.settings.dev && props.settings.mode === 'local') {
    return <DevServerNotice placeholder={translations.placeholder} onClose={props.onClose} />;
  }
  return <DocSearchModalWithConfig {...props} />;
}

function DocSearchModalWithConfig({config, settings, initialQuery, onClose}: SearchModalProps): ReactNode {
  const navigator = useNavigator(config.externalUrlRegex);
  const hitComponent = useHitComponent(config.externalUrlRegex);
  const searchParameters = useSearchParameters(config);
  // The error screen DocSearch cannot show by itself (searchFailure.tsx).
  const [failures] = useState(createFailureTracker);
  const transformSearchClient = useTransformSearchClient(settings, failures);
  const processSearchResultUrl = useSearchResultUrlProcessor();
  const [initialScrollY] = useState(() => window.scrollY);

  const transformItems = useCallback(
    (items: DocSearchHit[]) => items.map((item) => ({...item, url: processSearchResultUrl(item.url)})),
    [processSearchResultUrl],
  );
  const resultsFooterComponent = useMemo(
    () =>
      function SearchResultsFooter({state}: {state: {query: string; context: Record<string, unknown>}}) {
        return <ResultsFooter query={state.query} nbHits={Number(state.context.nbHits ?? 0)} onClose={onClose} />;
      },
    [onClose],
  );
  const template = settings.missingResultsUrl;
  const getMissingResultsUrl = useCallback(({query}: {query: string}) => missingResultsUrl(template ?? '', query), [template]);

  // DocSearch has mounted and focused its input (children's effects run first): the search shell,
  // if it showed, hands over what was typed since `initialQuery` was read, and its caret.
  useEffect(() => handOffTo(getContainer().querySelector<HTMLInputElement>('input.DocSearch-Input')), []);
  // The dialog's role and name, no landmarks in it, aria-controls naming real lists (modalSemantics.ts).
  useLayoutEffect(() => watchModalSemantics(getContainer(), translations.placeholder), []);

  const target = getContainer();
  // Lets styles.css drop DocSearch's "Powered by Algolia" footer logo in local mode.
  target.dataset.searchMode = settings.mode;
  const modal = createPortal(
    <DocSearchModal
      appId={config.appId}
      apiKey={config.apiKey}
      // Local mode: the name of the stored recent and favourite searches.
      indexName={settings.mode === 'local' ? settings.indexName : config.indexName}
      placeholder={translations.placeholder}
      translations={translations.modal}
      searchParameters={searchParameters}
      initialScrollY={initialScrollY}
      initialQuery={initialQuery}
      navigator={navigator}
      transformItems={transformItems}
      hitComponent={hitComponent}
      transformSearchClient={transformSearchClient}
      {...(template ? {getMissingResultsUrl} : {})}
      // search-insights comes from a CDN: only with Algolia.
      insights={settings.mode === 'algolia' && Boolean(config.insights)}
      onClose={onClose}
      {...(config.searchPagePath ? {resultsFooterComponent} : {})}
    />,
    target,
  );
  return (
    <>
      {modal}
      <SearchFailureScreen tracker={failures} root={target} translations={translations.modal?.errorScreen} />
    </>
  );
}
