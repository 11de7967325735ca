/**
 * Index settings: DocSearch's Docusaurus template (what the hosted crawler sets for a Docusaurus
 * site), plus `_` indexed as a separator so field names such as `active_power_w` and codes such as
 * `user:unauthorized` are findable as typed. The Algolia publisher sets them explicitly on every
 * publish (never only copied from a live index that may not exist yet); the local engine follows
 * the same rules (where the two still differ: the README's "How a query is answered").
 */
import {HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG} from './constants.ts';
import {QUESTION_WORDS} from '../engine/fields.ts';

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
  // The template's list: FACET_ATTRIBUTES plus `lang`, DocSearch's legacy name of `language`.
  attributesForFaceting: ['type', 'lang', 'language', 'version', 'docusaurus_tag'],
  attributesToRetrieve: ['hierarchy', 'content', 'anchor', 'url', 'url_without_anchor', 'type'],
  attributesToHighlight: ['hierarchy', 'content'],
  attributesToSnippet: ['content:10'],
  camelCaseAttributes: ['hierarchy', 'content'],
  distinct: true,
  attributeForDistinct: 'url',
  customRanking: ['desc(weight.pageRank)', 'desc(weight.level)', 'asc(weight.position)'],
  ranking: ['words', 'filters', 'typo', 'attribute', 'proximity', 'exact', 'custom'],
  highlightPreTag: HIGHLIGHT_PRE_TAG,
  highlightPostTag: HIGHLIGHT_POST_TAG,
  minWordSizefor1Typo: 3,
  minWordSizefor2Typos: 7,
  allowTyposOnNumericTokens: false,
  minProximity: 1,
  ignorePlurals: true,
  advancedSyntax: true,
  attributeCriteriaComputedByMinProximity: true,
  separatorsToIndex: '_',
  // Query relaxation, as the local engine answers (see the README, "How a query is answered"):
  // a query none of whose records holds every word is asked again with every word optional
  // (records holding more of the words first: the `words` criterion); the words of a question
  // ("how", "which", "can I") and English stop words never keep a record out. A word no record
  // holds (another product's name) leaves no record holding every word, so `allOptional` answers
  // with the others, as the local engine does by dropping it. (The local engine's ×0.7 for pages
  // outside the documentation has no index setting: `optionalFilters` is a query parameter; nor
  // has its weighing of an OR answer by the share of the words a section's page holds: Algolia
  // ranks each record alone.)
  removeWordsIfNoResults: 'allOptional' as const,
  optionalWords: [...QUESTION_WORDS].sort(),
  removeStopWords: ['en' as const],
  queryLanguages: ['en' as const],
};
