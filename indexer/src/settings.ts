/**
 * Index settings: DocSearch's Docusaurus template (what the hosted crawler sets for a
 * Docusaurus site), plus `_` indexed as a separator so field names such as `active_power_w`
 * and codes such as `user:unauthorized` are findable as typed. They are set explicitly on every
 * publish, never only copied from a live index that may not exist yet.
 */
import type {algoliasearch} from 'algoliasearch';

export type IndexSettings = Parameters<ReturnType<typeof algoliasearch>['setSettings']>[0]['indexSettings'];

export const DOCSEARCH_SETTINGS = {
  searchableAttributes: [
    'unordered(hierarchy.lvl0)',
    'unordered(hierarchy.lvl1)',
    'unordered(hierarchy.lvl2)',
    'unordered(hierarchy.lvl3)',
    'unordered(hierarchy.lvl4)',
    'unordered(hierarchy.lvl5)',
    'unordered(hierarchy.lvl6)',
    'content',
  ],
  attributesForFaceting: ['type', 'lang', 'language', 'version', 'docusaurus_tag'],
  attributesToRetrieve: ['hierarchy', 'content', 'anchor', 'url', 'url_without_anchor', 'type'],
  attributesToHighlight: ['hierarchy', 'content'],
  attributesToSnippet: ['content:10'],
  camelCaseAttributes: ['hierarchy', 'content'],
  distinct: true,
  attributeForDistinct: 'url',
  customRanking: ['desc(weight.pageRank)', 'desc(weight.level)', 'asc(weight.position)'],
  ranking: ['words', 'filters', 'typo', 'attribute', 'proximity', 'exact', 'custom'],
  highlightPreTag: '<span class="algolia-docsearch-suggestion--highlight">',
  highlightPostTag: '</span>',
  minWordSizefor1Typo: 3,
  minWordSizefor2Typos: 7,
  allowTyposOnNumericTokens: false,
  minProximity: 1,
  ignorePlurals: true,
  advancedSyntax: true,
  attributeCriteriaComputedByMinProximity: true,
  removeWordsIfNoResults: 'allOptional',
  separatorsToIndex: '_',
} satisfies IndexSettings;

/** True when every setting we manage already has our value on the index (others are ignored). */
export function settingsMatch(current: Record<string, unknown>, wanted: Record<string, unknown> = DOCSEARCH_SETTINGS): boolean {
  return Object.entries(wanted).every(([key, value]) => JSON.stringify(current[key]) === JSON.stringify(value));
}
