/**
 * The browser side of docusaurus-theme-docs-search, for the theme components and for a site
 * that swizzles them (import from 'docusaurus-theme-docs-search/client'). The modal itself is
 * not here: useSearchLauncher loads it on first use.
 */
export {SearchButton, type SearchButtonProps} from './SearchButton.tsx';
export {useAlgoliaContextualFacetFilters, useAlgoliaThemeConfig, useSearchResultUrlProcessor} from './algoliaConfig.ts';
export {DevServerText} from './devServerText.tsx';
export {getLocalSearchClient} from './localSearch.ts';
export {missingResultsUrl, useSearchSettings, PLUGIN_NAME, type SearchMode, type SearchSettings} from './searchConfig.ts';
export {handOffTo, searchShell, type SearchShell} from './shell.ts';
export {loadSearchModal, useSearchLauncher, type SearchModalComponent} from './useSearchLauncher.ts';
export {countsAsSearchInput, isEditingContent, useSearchShortcuts, type SearchShortcutsOptions} from './useSearchShortcuts.ts';
