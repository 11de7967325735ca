/**
 * Build-time search settings as the browser sees them. `customFields.searchMode` is decided in
 * docusaurus.config.ts from ALGOLIA_APP_ID / ALGOLIA_SEARCH_API_KEY / ALGOLIA_INDEX_NAME.
 */
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';

export type SearchMode = 'algolia' | 'local';

export interface SearchSettings {
  mode: SearchMode;
  /** The source repository; "Let us know" opens a new issue there. */
  repoUrl: string;
}

export function readSearchSettings(customFields: Record<string, unknown> | undefined): SearchSettings {
  return {
    mode: customFields?.searchMode === 'algolia' ? 'algolia' : 'local',
    repoUrl: typeof customFields?.repoUrl === 'string' ? customFields.repoUrl : '',
  };
}

export function useSearchSettings(): SearchSettings {
  const {siteConfig} = useDocusaurusContext();
  return readSearchSettings(siteConfig.customFields);
}

/**
 * The "Let us know" link of the no-results screen: a new issue in the source repository with
 * the query in its title.
 */
export function missingResultsUrl(repoUrl: string, query: string): string {
  const title = `Search: no results for "${query}"`;
  const body = `Searching the documentation for "${query}" returned no results. I expected to find:\n\n`;
  return `${repoUrl.replace(/\/+$/, '')}/issues/new?title=${encodeURIComponent(title)}&body=${encodeURIComponent(body)}`;
}
