/**
 * Stable objectIDs. The legacy DocSearch scraper hashed a record's position into its ID, so
 * inserting one paragraph renamed every record below it and every publish rewrote the index.
 * Here an ID depends only on the record's identity: its page, the chain of heading anchors it
 * sits under, its type, a hash of its own text, and an occurrence counter that only counts
 * identical siblings (two equal paragraphs in one section).
 */
import {hash} from 'node:crypto';

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

export function objectIdFor(identity: RecordIdentity): string {
  // One hash over the whole identity (the text included): no separate hash of the text needed.
  // One-shot over the joined parts: the same digest as updating a hash part by part, made faster.
  const input = `${identity.page}\u0000${identity.sectionPath.join('/')}\u0000${identity.type}\u0000${identity.occurrence}\u0000${identity.text}`;
  return hash('sha1', input, 'hex').slice(0, 24);
}
