/**
 * The records a crawl collected, kept compact. A 5,000-page build gives about 320,000 records:
 * as objects they take ~175 MB of heap (and several times that in RSS while the collector keeps
 * up), as JSON ~200 MB. So pages extracted by the worker pool are kept as deflated JSON (about
 * 8× smaller, outside the JS heap) and turned back into records one page at a time, when a
 * consumer walks them (`pages()`), e.g. the publisher's diff. Pages extracted in the calling
 * thread (small sites) keep their record objects.
 *
 * Page order is the crawl's result order (pages sorted by URL); records keep their order within a page.
 */
import {inflateRawSync} from 'node:zlib';
import type {SearchRecord} from './records.ts';

interface StoredPage {
  url: string;
  count: number;
  records?: SearchRecord[];
  /** The page's records as a deflated (raw) JSON array. */
  packed?: Uint8Array;
  /** Bytes of that JSON array, when known. */
  jsonBytes?: number;
}

export class RecordStore {
  private readonly stored: StoredPage[] = [];
  private total = 0;

  /**
   * @param validated every record was checked against the zod schema when it was extracted,
   *   so a consumer need not check it again.
   */
  constructor(readonly validated: boolean) {}

  /** Builds a store over records already in memory (not validated). */
  static of(records: readonly SearchRecord[]): RecordStore {
    const store = new RecordStore(false);
    if (records.length) store.addRecords('', [...records]);
    return store;
  }

  addRecords(url: string, records: SearchRecord[]): void {
    this.stored.push({url, count: records.length, records});
    this.total += records.length;
  }

  addPacked(url: string, count: number, packed: Uint8Array, jsonBytes?: number): void {
    this.stored.push({url, count, packed, ...(jsonBytes === undefined ? {} : {jsonBytes})});
    this.total += count;
  }

  /** Number of records. */
  get size(): number {
    return this.total;
  }

  /** Number of pages. */
  get pageCount(): number {
    return this.stored.length;
  }

  /** A page's records from their deflated JSON. */
  static unpack(packed: Uint8Array): SearchRecord[] {
    return JSON.parse(inflateRawSync(packed).toString('utf8')) as SearchRecord[];
  }

  /** Each page's records, in order; unpacked pages are not kept. */
  *pages(): Generator<SearchRecord[]> {
    for (const [records] of this.pagesWithSize()) yield records;
  }

  /**
   * Each page's records with the byte size of their JSON array (`JSON.stringify(records)`) when
   * the store knows it without serializing them (pages packed by a crawl).
   */
  *pagesWithSize(): Generator<[SearchRecord[], number | undefined]> {
    for (const page of this.stored) {
      if (page.records) yield [page.records, undefined];
      else if (page.packed) yield [RecordStore.unpack(page.packed), page.jsonBytes];
    }
  }

  *[Symbol.iterator](): Generator<SearchRecord> {
    for (const records of this.pages()) yield* records;
  }

  /** Every record as one array (what small sites and tests want; big sites should walk `pages()`). */
  toArray(): SearchRecord[] {
    const out: SearchRecord[] = [];
    for (const records of this.pages()) for (const record of records) out.push(record);
    return out;
  }
}
