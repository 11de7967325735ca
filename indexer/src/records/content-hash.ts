/**
 * Content hashes of records, for the publisher's diff: equal records give equal hashes whatever
 * the order of their keys (a browsed hit's keys come back in Algolia's order). The first
 * CONTENT_HASH_BYTES bytes of the SHA-1 of the record's JSON with sorted keys are kept: 96 bits,
 * so a changed record is missed with a chance of 2^-96.
 *
 * Computed for the live index's records by the publisher, and for a crawl's records by the
 * extract workers (`crawl(…, {digests: true})`), in parallel with extraction.
 */
import {hash} from 'node:crypto';

export const CONTENT_HASH_BYTES = 12;

/** JSON with object keys sorted (and undefined values left out), so equal records give equal text. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    let out = '';
    for (const key of Object.keys(object).sort()) {
      const v = object[key];
      if (v === undefined) continue;
      out += `${out ? ',' : ''}${JSON.stringify(key)}:${stableStringify(v)}`;
    }
    return `{${out}}`;
  }
  return JSON.stringify(value);
}

/** Writes the record's content hash into `target` at `offset`. */
export function writeContentHash(record: unknown, target: Uint8Array, offset: number): void {
  const digest = hash('sha1', stableStringify(record), 'buffer');
  target.set(digest.subarray(0, CONTENT_HASH_BYTES), offset);
}

/** The content hashes of `records`, one after the other. */
export function contentHashes(records: readonly unknown[]): Uint8Array {
  const out = new Uint8Array(records.length * CONTENT_HASH_BYTES);
  records.forEach((record, i) => writeContentHash(record, out, i * CONTENT_HASH_BYTES));
  return out;
}

/** Whether the hashes at `a[aOffset…]` and `b[bOffset…]` are equal. */
export function sameContentHash(a: Uint8Array, aOffset: number, b: Uint8Array, bOffset: number): boolean {
  for (let i = 0; i < CONTENT_HASH_BYTES; i++) if (a[aOffset + i] !== b[bOffset + i]) return false;
  return true;
}
