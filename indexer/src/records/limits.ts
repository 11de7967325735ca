/**
 * The size limit of a record (`--max-record-bytes`): Algolia refuses a record larger than 10 KB on
 * most plans (100 KB on some), so no record the indexer makes or sends is larger than this once
 * serialised as JSON. A module of its own, whose one import (docs-search/constants) has no
 * dependency, so that `--help` can show it.
 */

import {MAX_RECORD_BYTES} from 'docs-search/constants';

/** Default largest record, in bytes of JSON: docs-search's MAX_RECORD_BYTES (10,000). */
export const DEFAULT_MAX_RECORD_BYTES = MAX_RECORD_BYTES;
/** Lowest limit accepted: below it a record's URL and hierarchy leave no room for text. */
export const MIN_MAX_RECORD_BYTES = 2_000;
/** Highest limit accepted (Algolia's largest plans). */
export const MAX_MAX_RECORD_BYTES = 100_000;
