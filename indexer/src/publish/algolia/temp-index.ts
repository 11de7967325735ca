/**
 * Temporary indices: their names (the live index's name, `_tmp_` and the run's start time), the
 * build mark a run leaves in their settings, and the removal of those left by killed runs
 * (older than STALE_TEMP_INDEX_MS) at the start of every run that may write.
 */
import {PublishError} from '../../errors.ts';
import type {Calls} from './calls.ts';
import {BUILD_MARK, type PublishEvent} from './options.ts';

/** Pages of 1,000 indices read when looking for leftovers (Algolia plans allow far fewer indices). */
const MAX_LIST_PAGES = 100;

/** `NAME_tmp_` + the run's start time (8 base-36 digits until 2059) + 4 random base-36 digits. */
export function tempIndexName(indexName: string, now = Date.now()): string {
  const random = Math.floor(Math.random() * 36 ** 4).toString(36).padStart(4, '0');
  return `${indexName}_tmp_${now.toString(36)}${random}`;
}

/** When the run that made `name`, a temporary index of `indexName`, started (ms); undefined for any other name. */
export function tempIndexStartedAt(name: string, indexName: string): number | undefined {
  const prefix = `${indexName}_tmp_`;
  if (!name.startsWith(prefix)) return undefined;
  const suffix = name.slice(prefix.length);
  if (!/^[0-9a-z]{12}$/.test(suffix)) return undefined;
  const startedAt = parseInt(suffix.slice(0, 8), 36);
  // Only times this tool can have written (2020 on): "docs_tmp_backup2024" is someone else's.
  return startedAt >= Date.UTC(2020, 0, 1) ? startedAt : undefined;
}

/** The run named in an index's settings, undefined when it carries no mark. */
export function buildOf(settings: Record<string, unknown> | undefined): string | undefined {
  const mark = (settings?.userData as Record<string, unknown> | undefined)?.[BUILD_MARK];
  return typeof mark === 'string' ? mark : undefined;
}


export function describeBuild(build: string | null | undefined): string {
  if (build === null) return 'no index';
  return build === undefined ? 'a build without a docs-indexer mark' : `the build of run "${build}"`;
}


/** Deletes temporary indices of this live index left by runs that started more than the stale age ago. */
export async function removeLeftovers(
  {client, withRetries}: Calls,
  live: string,
  maxAge: number,
  emit: (event: PublishEvent) => void,
): Promise<void> {
  const now = Date.now();
  const stale: string[] = [];
  try {
    emit({type: 'step', step: 'leftovers', index: live});
    // Bounded: at most MAX_LIST_PAGES pages, and a page without items ends the listing.
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const list = await withRetries('leftovers', () => client.listIndices({page, hitsPerPage: 1000}));
      if (!Array.isArray(list?.items)) throw new Error('the answer is not a list of indices');
      if (list.items.length === 0) break;
      for (const item of list.items) {
        const startedAt = tempIndexStartedAt(item.name, live);
        const updatedAt = Date.parse(item.updatedAt);
        // Both the name's start time and the last write must be old: a slow run is never touched.
        if (startedAt !== undefined && now - startedAt > maxAge && !(now - updatedAt <= maxAge)) stale.push(item.name);
      }
      if (!list.nbPages || page + 1 >= list.nbPages) break;
    }
    for (const name of stale) {
      await withRetries('leftovers', () => client.deleteIndex({indexName: name}));
      emit({type: 'leftover', index: name});
    }
  } catch (error) {
    if (error instanceof PublishError && error.message === 'interrupted') throw error;
    // A key without the listIndexes right, or a flaky list: the publish itself can still go on.
    emit({type: 'warning', message: `could not remove temporary indices left by earlier runs (${error instanceof Error ? error.message : String(error)})`});
  }
}
