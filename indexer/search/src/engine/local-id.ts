/**
 * The objectIDs of the records unpacked from a local index file (index-file.ts), which carries
 * none.
 */

/**
 * A local objectID: 16 hex characters of a hash of what object-id.ts hashes (the record's
 * section, type, own text and rank among identical siblings), so they stay stable when other
 * records change. They are not the Algolia objectIDs (the file does not carry those: random
 * hex is a third of a compressed index); they only key recent and favourite searches.
 */
export function localObjectId(url: string, type: string, text: string, occurrence: number): string {
  HASH[0] = 0x811c9dc5;
  HASH[1] = 0x01000193 ^ (url.length + text.length);
  feedHash(url);
  feedHash(type);
  feedHash(String(occurrence));
  feedHash(text);
  let h1 = HASH[0]!;
  let h2 = HASH[1]!;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b);
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  return (h1 >>> 0).toString(16).padStart(8, '0') + ((h2 ^ (h2 >>> 16)) >>> 0).toString(16).padStart(8, '0');
}

/**
 * The two hash states of localObjectId, fed one part at a time by a function of its own rather
 * than a closure made per record: the browser hashes every record's text before the first answer.
 */
const HASH = new Int32Array(2);
function feedHash(part: string): void {
  let h1 = HASH[0]!;
  let h2 = HASH[1]!;
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  HASH[0] = Math.imul(h1, 0x01000193);
  HASH[1] = Math.imul(h2 ^ 0xff, 0x5bd1e995);
}
