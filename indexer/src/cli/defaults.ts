/**
 * Defaults the help text shows. Kept apart from options.ts (zod) so that `docs-indexer --help`
 * loads no validation code (docs-search/constants has no dependency).
 */
import {LOCAL_INDEX_PATH} from 'docs-search/constants';

export {DEFAULT_MAX_FAILED, DEFAULT_MAX_PAGES} from '../crawl/defaults.ts';
export {DEFAULT_MAX_RECORD_BYTES} from '../records/limits.ts';

/** Pages read or fetched at once when --concurrency is not given. */
export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

/** Where `search` looks for the local index when --index-file is not given, from the current folder. */
export const DEFAULT_INDEX_FILES = ['build', 'site/build'].map((folder) => `${folder}/${LOCAL_INDEX_PATH}`);
