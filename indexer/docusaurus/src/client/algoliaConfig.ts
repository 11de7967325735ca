/**
 * The three hooks of `@docusaurus/theme-search-algolia/client` that the modal and /search use,
 * written here on Docusaurus's public APIs (as in 3.0 to 3.10) so that the theme never imports
 * that module: its index re-exports `useAlgoliaAskAi`, which imports `@docsearch/react/version`,
 * a file DocSearch 3 does not have. The stock theme aliases it away only when it is loaded
 * itself (Algolia mode): a local-mode site on Docusaurus 3.9+ whose top-level DocSearch is 3.x
 * (a site that started on an older 3.x and upgraded) then failed to build
 * (`Can't resolve '@docsearch/react/version'`).
 */
import {useCallback} from 'react';
import {isRegexpStringMatch, useContextualSearchFilters} from '@docusaurus/theme-common';
import {useBaseUrlUtils} from '@docusaurus/useBaseUrl';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import type {ThemeConfig} from '@docusaurus/theme-search-algolia';

export function useAlgoliaThemeConfig(): ThemeConfig {
  return useDocusaurusContext().siteConfig.themeConfig as unknown as ThemeConfig;
}

/** The page's locale and docs versions as Algolia facet filters (contextual search). */
export function useAlgoliaContextualFacetFilters(): [string, string[]] {
  const {locale, tags} = useContextualSearchFilters();
  return [`language:${locale}`, tags.map((tag) => `docusaurus_tag:${tag}`)];
}

/** A hit's URL as the site links it: relative (through the router) unless external. */
export function useSearchResultUrlProcessor(): (url: string) => string {
  const {withBaseUrl} = useBaseUrlUtils();
  const {externalUrlRegex, replaceSearchResultPathname} = useAlgoliaThemeConfig().algolia ?? {};
  return useCallback(
    (url: string) => {
      const parsed = new URL(url, 'http://relative.invalid');
      if (isRegexpStringMatch(externalUrlRegex, parsed.href)) return url;
      const relative = `${parsed.pathname}${parsed.search}${parsed.hash}`;
      const replaced = replaceSearchResultPathname
        ? relative.replaceAll(new RegExp(replaceSearchResultPathname.from, 'g'), replaceSearchResultPathname.to)
        : relative;
      return withBaseUrl(replaced);
    },
    [withBaseUrl, externalUrlRegex, replaceSearchResultPathname],
  );
}
