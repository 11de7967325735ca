/**
 * `docs-search/record`: the search record, defined once. Node only (zod, node:crypto); the browser
 * reads the zod-free part through the package's main entry.
 */
export * from './constants.ts';
export * from './schema.ts';
export {objectIdFor, type RecordIdentity} from './object-id.ts';
export {DOCSEARCH_SETTINGS} from './settings.ts';
/** The words the local engine drops from a query (a question's own words, stop words): what the settings make optional for Algolia. */
export {QUESTION_WORDS, STOP_WORDS} from '../engine/fields.ts';
