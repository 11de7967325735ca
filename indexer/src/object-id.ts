/**
 * Stable objectIDs. The legacy DocSearch scraper hashed a record's position into its ID, so
 * inserting one paragraph renamed every record below it and every publish rewrote the index.
 * Here an ID depends only on the record's identity: its page, the chain of heading anchors it
 * sits under, its type, a hash of its own text, and an occurrence counter that only counts
 * identical siblings (two equal paragraphs in one section).
 */
import {createHash} from 'node:crypto';

export interface RecordIdentity {
  /** Page URL without anchor. */
  page: string;
  /** Heading anchors from lvl2 down to the record's section, e.g. `["response", "fields"]`. */
  sectionPath: readonly string[];
  type: string;
  /** The record's own text (heading text or content). */
  text: string;
  /** 0 for the first record with this type and text in this section, 1 for the next, … */
  occurrence: number;
}

export function hashText(text: string, length = 16): string {
  return createHash('sha1').update(text).digest('hex').slice(0, length);
}

export function objectIdFor(identity: RecordIdentity): string {
  const key = [
    identity.page,
    identity.sectionPath.join('/'),
    identity.type,
    hashText(identity.text),
    String(identity.occurrence),
  ].join('\u0000');
  return hashText(key, 24);
}
