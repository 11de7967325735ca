/**
 * The index settings the publisher manages (DOCSEARCH_SETTINGS, defined with the record in
 * docs-search/record), checked here against algoliasearch's own settings type.
 */
import type {algoliasearch} from 'algoliasearch';
import {DOCSEARCH_SETTINGS as SETTINGS} from 'docs-search/record';

export type IndexSettings = Parameters<ReturnType<typeof algoliasearch>['setSettings']>[0]['indexSettings'];

export const DOCSEARCH_SETTINGS: IndexSettings = SETTINGS satisfies IndexSettings;

/** True when every setting we manage already has our value on the index (others are ignored). */
export function settingsMatch(current: Record<string, unknown>, wanted: Record<string, unknown> = DOCSEARCH_SETTINGS): boolean {
  return Object.entries(wanted).every(([key, value]) => JSON.stringify(current[key]) === JSON.stringify(value));
}
