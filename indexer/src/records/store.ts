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
import {contentHashes} from './content-hash.ts';
import type {SearchRecord} from 'docs-search/record';

/** What the publisher's diff needs of a page, without its records. */
export interface PageDigest {
  /** The page's position in the store (for `page(index)`). */
  index: number;
  /** Its records' objectIDs, in order. */
  ids: string[];
  /** Their content hashes (content-hash.ts), CONTENT_HASH_BYTES each, in order. */
  hashes: Uint8Array;
  /** Bytes of `JSON.stringify(records)`, when known without serializing them. */
  jsonBytes?: number;
}

/** Digests a crawl worker made with a packed page (`crawl(…, {digests: true})`). */
export interface PackedDigest {
  /** The objectIDs joined by newlines. */
  ids: string;
  hashes: Uint8Array;
}

interface StoredPage {
  url: string;
  count: number;
  records?: SearchRecord[];
  /** The page's records as a deflated (raw) JSON array. */
  packed?: Uint8Array;
  /** Bytes of that JSON array, when known. */
  jsonBytes?: number;
  digest?: PackedDigest;
}

export class RecordStore {
  private readonly stored: StoredPage[] = [];
  private total = 0;

  /**
   * @param validated every record was checked against the zod schema when it was extracted,
   *   so a consumer need not check it again.
   * @param recordLimit every record is at most this many bytes of JSON (the extractor's rule).
   */
  constructor(
    readonly validated: boolean,
    /** The record size limit its records were made under (crawl's `maxRecordBytes`), when known. */
    readonly recordLimit?: number,
  ) {}

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

  addPacked(url: string, count: number, packed: Uint8Array, jsonBytes?: number, digest?: PackedDigest): void {
    this.stored.push({url, count, packed, ...(jsonBytes === undefined ? {} : {jsonBytes}), ...(digest ? {digest} : {})});
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
    for (let index = 0; index < this.stored.length; index++) yield this.page(index);
  }

  /**
   * The records at `positions` (ascending; a record's position counts every record before it in
   * the store), each with its position. Only the pages that hold one are unpacked.
   */
  *recordsAt(positions: readonly number[]): Generator<[number, SearchRecord]> {
    let next = 0;
    let first = 0;
    for (let index = 0; index < this.stored.length && next < positions.length; index++) {
      const count = (this.stored[index] as StoredPage).count;
      if ((positions[next] as number) < first + count) {
        const records = this.page(index);
        for (; next < positions.length && (positions[next] as number) < first + count; next++) {
          const position = positions[next] as number;
          yield [position, records[position - first] as SearchRecord];
        }
      }
      first += count;
    }
  }

  /** Every page's digest is at hand without unpacking it (kept objects, or digests from the crawl). */
  get digested(): boolean {
    return this.stored.every((page) => page.records !== undefined || page.digest !== undefined);
  }

  /** The records of the page at `index`. */
  page(index: number): SearchRecord[] {
    const page = this.stored[index];
    if (!page) throw new RangeError(`no page ${index} in the store`);
    return page.records ?? (page.packed ? RecordStore.unpack(page.packed) : []);
  }

  /**
   * Each page's objectIDs and content hashes: from the crawl's digests when the workers made
   * them (no unpacking), else from the records. `hashes: false` leaves the hashes empty where
   * they would have to be computed.
   */
  *digests({hashes = true}: {hashes?: boolean} = {}): Generator<PageDigest> {
    for (let index = 0; index < this.stored.length; index++) {
      const page = this.stored[index] as StoredPage;
      const jsonBytes = page.jsonBytes === undefined ? {} : {jsonBytes: page.jsonBytes};
      if (page.digest) {
        yield {index, ids: page.count ? page.digest.ids.split('\n') : [], hashes: page.digest.hashes, ...jsonBytes};
      } else {
        const records = this.page(index);
        yield {index, ids: records.map((r) => r.objectID), hashes: hashes ? contentHashes(records) : new Uint8Array(0), ...jsonBytes};
      }
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
