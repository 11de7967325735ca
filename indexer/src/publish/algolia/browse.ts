/**
 * The browse step: reads an index's records (the live one, or its copy) into LiveRecords, the
 * compact form the diff compares the new records with (diff.ts).
 */
import {PublishError} from '../../errors.ts';
import {CONTENT_HASH_BYTES, sameContentHash, writeContentHash} from '../../records/content-hash.ts';
import {STEP_LABELS, type Calls} from './calls.ts';
import type {PublishStep, RecordChange} from './options.ts';

/**
 * The live index as the diff needs it: per objectID, 96 bits of its content hash and its URL.
 * Kept in typed arrays (a slot per record) rather than a string per hash: 320,000 live records
 * took 75 MB of heap as two maps of strings.
 */
export class LiveRecords {
  private readonly slots = new Map<string, number>();
  private hashes = new Uint8Array(CONTENT_HASH_BYTES * 1024);
  private urlIds = new Uint32Array(1024);
  /** One string per URL: the records of a section share it. */
  private readonly urls: string[] = [];
  private readonly urlIdOf = new Map<string, number>();

  get size(): number {
    return this.slots.size;
  }

  add(objectID: string, record: unknown, url: string): void {
    let slot = this.slots.get(objectID);
    if (slot === undefined) {
      slot = this.slots.size;
      this.slots.set(objectID, slot);
      if (slot >= this.urlIds.length) {
        const urlIds = new Uint32Array(this.urlIds.length * 2);
        urlIds.set(this.urlIds);
        this.urlIds = urlIds;
        const hashes = new Uint8Array(this.hashes.length * 2);
        hashes.set(this.hashes);
        this.hashes = hashes;
      }
    }
    writeContentHash(record, this.hashes, slot * CONTENT_HASH_BYTES);
    let urlId = this.urlIdOf.get(url);
    if (urlId === undefined) {
      urlId = this.urls.length;
      this.urls.push(url);
      this.urlIdOf.set(url, urlId);
    }
    this.urlIds[slot] = urlId;
  }

  /** Removes `objectID`; its slot, or -1 when the live index does not have it. */
  take(objectID: string): number {
    const slot = this.slots.get(objectID);
    if (slot === undefined) return -1;
    this.slots.delete(objectID);
    return slot;
  }

  /** Whether the live record in `slot` has the content hash at `hashes[offset…]`. */
  sameContent(slot: number, hashes: Uint8Array, offset: number): boolean {
    return sameContentHash(this.hashes, slot * CONTENT_HASH_BYTES, hashes, offset);
  }

  /** The records not taken: what the new records no longer have. */
  *remaining(): Generator<RecordChange> {
    for (const [objectID, slot] of this.slots) yield {objectID, url: this.urls[this.urlIds[slot] as number] ?? ''};
  }
}

/** Records asked for per browse request (Algolia's maximum). */
const BROWSE_PAGE_SIZE = 1000;
/** Pages a browse may take beyond what its first answer's `nbHits` needs (records added meanwhile). */
const BROWSE_EXTRA_PAGES = 10;
/** The size assumed when a browse answer gives no `nbHits`: far above any docs site. */
const MAX_BROWSE_RECORDS = 10_000_000;

/** What is wrong with a browse answer, or undefined when it has the shape of one. */
export function browsePageProblem(page: unknown): string | undefined {
  if (typeof page !== 'object' || page === null) return 'no object';
  const {hits, nbHits, cursor} = page as Record<string, unknown>;
  if (!Array.isArray(hits)) return '"hits" is not a list';
  if (hits.some((hit) => typeof hit !== 'object' || hit === null || typeof (hit as Record<string, unknown>).objectID !== 'string')) {
    return 'a hit has no objectID';
  }
  if (nbHits !== undefined && !(Number.isSafeInteger(nbHits) && (nbHits as number) >= 0)) return '"nbHits" is not a count';
  if (cursor !== undefined && typeof cursor !== 'string') return '"cursor" is not a string';
  return undefined;
}

/** A live hit as we stored it: Algolia's own `_…` attributes removed. */
function storedRecord(hit: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(hit)) if (!key.startsWith('_')) out[key] = value;
  return out;
}


/**
 * The live index's records, or its copy's, as the diff needs them. Bounded whatever the server
 * answers: every answer must have the shape of a browse page, a cursor already seen ends the
 * run, and so does a page past the index's size (its first answer's `nbHits`) plus
 * BROWSE_EXTRA_PAGES; each is a PublishError before anything was written.
 */
export async function browseInto({client, withRetries}: Calls, step: PublishStep, indexName: string): Promise<LiveRecords> {
  const into = new LiveRecords();
  const seen = new Set<string>();
  let maxPages = Number.POSITIVE_INFINITY;
  let size = 0;
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= maxPages) {
      throw new PublishError(
        `${STEP_LABELS[step]} failed: Algolia still gave a cursor after ${pages} pages, more than the index's ${size} records need (it would never end)`,
      );
    }
    const page: unknown = await withRetries(step, () =>
      client.browse<Record<string, unknown>>({
        indexName,
        browseParams: {hitsPerPage: BROWSE_PAGE_SIZE, attributesToRetrieve: ['*'], distinct: false, ...(cursor ? {cursor} : {})},
      }),
    );
    const problem = browsePageProblem(page);
    if (problem) throw new PublishError(`${STEP_LABELS[step]} failed: Algolia's answer is not a browse page (${problem})`);
    const {hits, nbHits, cursor: next} = page as {hits: Record<string, unknown>[]; nbHits?: number; cursor?: string};
    if (pages === 0) {
      size = nbHits ?? MAX_BROWSE_RECORDS;
      maxPages = Math.ceil(size / BROWSE_PAGE_SIZE) + BROWSE_EXTRA_PAGES;
    }
    for (const hit of hits) {
      const stored = storedRecord(hit);
      into.add(String(stored.objectID), stored, String(stored.url ?? ''));
    }
    if (next === undefined || next === '') return into;
    if (seen.has(next)) throw new PublishError(`${STEP_LABELS[step]} failed: Algolia answered a cursor it had already given (it would never end)`);
    seen.add(next);
    cursor = next;
  }
}
