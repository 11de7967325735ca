/**
 * The diff step: which records a run sends (added or changed, by objectID and content hash),
 * which it deletes, and how many bytes that is; then the operations themselves, made a page of
 * the RecordStore at a time. ObjectIDs repeated by several records are renamed here, the same
 * way on every run.
 */
import type {SearchRecord} from 'docs-search/record';
import {CONTENT_HASH_BYTES, writeContentHash} from '../../records/content-hash.ts';
import type {RecordStore} from '../../records/store.ts';
import {LiveRecords} from './browse.ts';
import type {RecordChange} from './options.ts';

/** Bytes an addObject operation adds around its record's JSON: `{"action":"addObject","body":…}`. */
const ADD_OPERATION_BYTES = Buffer.byteLength(JSON.stringify({action: 'addObject', body: {}})) - 2;

/** A record's objectID after duplicates were renamed. */
export type Renames = ReadonlyMap<number, string>;

/** The renamed records (by position) and the pages holding them. */
export interface Renaming {
  renames: Map<number, string>;
  pages: Set<number>;
}

/**
 * ObjectIDs that repeat an earlier record's, by position: the nth record with an ID gets
 * `ID-n` (n ≥ 2), in store order, so every run names them the same way.
 */
export function findRenames(store: RecordStore): Renaming {
  const ids = new Set<string>();
  const renames = new Map<number, string>();
  const pages = new Set<number>();
  const repeats = new Map<string, number>();
  let position = 0;
  for (const page of store.digests({hashes: false})) {
    for (const id of page.ids) {
      if (ids.has(id)) {
        let n = repeats.get(id) ?? 1;
        let renamed: string;
        do renamed = `${id}-${++n}`;
        while (ids.has(renamed));
        repeats.set(id, n);
        ids.add(renamed);
        renames.set(position, renamed);
        pages.add(page.index);
      } else {
        ids.add(id);
      }
      position += 1;
    }
  }
  return {renames, pages};
}

/** The objectIDs and URLs of the records at two sets of ascending positions of `store`. */
export function pick(store: RecordStore, renames: Renames, add: readonly number[], update: readonly number[]): {add: RecordChange[]; update: RecordChange[]} {
  const change = (positions: readonly number[]): RecordChange[] =>
    Array.from(store.recordsAt(positions), ([position, record]) => ({objectID: renames.get(position) ?? record.objectID, url: record.url}));
  return {add: change(add), update: change(update)};
}

export type Operation = {action: 'addObject' | 'deleteObject'; body: Record<string, unknown>};

/** What a run sends: the result of comparing the records with an index's (or of sending them all). */
export interface Plan {
  sendAll: boolean;
  added: number[];
  updated: number[];
  unchanged: number;
  deleted: RecordChange[];
  deletions: Operation[];
  bytes: number;
}


/** Compares the records with an index's (`undefined`: none, everything is sent). */
export function planAgainst(store: RecordStore, {renames, pages: renamedPages}: Renaming, full: boolean | undefined, index: LiveRecords | undefined): Plan {
  const sendAll = Boolean(full) || index === undefined;
  const against = index ?? new LiveRecords();
  const added: number[] = [];
  const updated: number[] = [];
  let unchanged = 0;
  let bytes = 0;
  const addBytes = (op: Operation): void => {
    bytes += Buffer.byteLength(JSON.stringify(op));
  };
  let position = 0;
  for (const page of store.digests()) {
    const count = page.ids.length;
    let hashes = page.hashes;
    if (renamedPages.has(page.index)) {
      // A renamed record's hash is the hash of the record as sent, with its new objectID.
      hashes = hashes.slice();
      const records = store.page(page.index);
      for (let i = 0; i < count; i++) {
        const renamed = renames.get(position + i);
        if (renamed) writeContentHash({...records[i], objectID: renamed}, hashes, i * CONTENT_HASH_BYTES);
      }
    }
    // Every record of the page goes out and the size of its JSON is known: no need to serialize
    // each one (an operation is the record's JSON inside ADD_OPERATION_BYTES of wrapping).
    const sized = sendAll && page.jsonBytes !== undefined && count > 0 && !renamedPages.has(page.index);
    if (sized) bytes += (page.jsonBytes as number) - 2 - (count - 1) + count * ADD_OPERATION_BYTES;
    /** Positions within the page of the records sent whose size is still to be counted. */
    const unsized: number[] = [];
    for (let i = 0; i < count; i++) {
      const slot = against.take(renames.get(position + i) ?? (page.ids[i] as string));
      let send = sendAll;
      if (slot === -1) {
        added.push(position + i);
        send = true;
      } else if (!against.sameContent(slot, hashes, i * CONTENT_HASH_BYTES)) {
        updated.push(position + i);
        send = true;
      } else {
        unchanged += 1;
      }
      if (send && !sized) unsized.push(i);
    }
    if (unsized.length) {
      const records = store.page(page.index);
      for (const i of unsized) {
        const record = records[i] as SearchRecord;
        const renamed = renames.get(position + i);
        addBytes({action: 'addObject', body: renamed ? {...record, objectID: renamed} : record});
      }
    }
    position += count;
  }
  const deleted = [...against.remaining()];
  // A full rebuild starts from an empty index: deletions happen by omission.
  const deletions: Operation[] = !full && index ? deleted.map((change) => ({action: 'deleteObject', body: {objectID: change.objectID}})) : [];
  for (const op of deletions) addBytes(op);
  return {sendAll, added, updated, unchanged, deleted, deletions, bytes};
}

/** The operations in order (records in crawl order, then deletions), made a page at a time. */
export function* operations(store: RecordStore, renames: Renames, plan: Plan): Generator<Operation> {
  const withId = (position: number, record: SearchRecord): Record<string, unknown> => {
    const renamed = renames.get(position);
    return renamed ? {...record, objectID: renamed} : record;
  };
  if (plan.sendAll) {
    let position = 0;
    for (const page of store.pages()) for (const record of page) yield {action: 'addObject', body: withId(position++, record)};
  } else {
    // Only the pages holding a changed record are unpacked.
    const changed = [...plan.added, ...plan.updated].sort((a, b) => a - b);
    for (const [position, record] of store.recordsAt(changed)) yield {action: 'addObject', body: withId(position, record)};
  }
  yield* plan.deletions;
}

