/**
 * `docs-search`: the local search of a docs site, in the browser and in Node. One engine
 * (tokenizer, ranking, highlights, snippets, facets), the static index file format, and a client
 * that answers DocSearch's modal and Docusaurus's search page with Algolia's response shape.
 * No `node:` import and no zod here: this entry is bundled into the site. The record's zod schema
 * and objectID rule are in `docs-search/record` (Node); the sharded index's writer in
 * `docs-search/shards`.
 */
export {
  FACET_ATTRIBUTES,
  HIGHLIGHT_POST_TAG,
  HIGHLIGHT_PRE_TAG,
  LEVELS,
  LOCAL_INDEX_PATH,
  MAX_RECORD_BYTES,
  MODAL_HIGHLIGHT_POST_TAG,
  MODAL_HIGHLIGHT_PRE_TAG,
  RECORD_TYPES,
  type Hierarchy,
  type Level,
  type RecordType,
  type SearchRecord,
} from './record/constants.ts';
export {decodeEntities} from './engine/text.ts';
export {LOCAL_INDEX_FORMAT, LocalIndexError, packRecords, unpackRecords, type LocalIndexFile} from './engine/index-file.ts';
export {LocalSearchEngine} from './engine/search.ts';
export {RANKING, RULE_NAMES, switchOff, type RuleName} from './engine/ranking.ts';
export {checkSynonyms, SynonymTable, type Synonym} from './engine/synonyms.ts';
// The sharded index's writer and whole-index reader (Node) are in `docs-search/shards`: kept out
// of this entry so a bundler puts no shard code in the code a one-file index loads (the client
// imports its shard reader on demand, see client.ts).
export {isShardManifest, SHARD_DIR, SHARDED_INDEX_FORMAT, type ShardManifest} from './engine/manifest.ts';
export {answerQuery, type AlgoliaHit, type AlgoliaResponse, type QueryParams} from './engine/answer.ts';
export {MODAL_MAX_QUERY, modalOrder, modalParams} from './engine/modal.ts';
export {createLocalSearchClient, parseParamString, RetryError, type LocalSearchClient, type LocalSearchClientOptions} from './client.ts';
