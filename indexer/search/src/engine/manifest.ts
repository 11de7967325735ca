/**
 * What the client must know of a sharded index (format 3) before it reads one: its manifest's
 * shape, how to tell it from a one-file index, and the names of the terms files. Apart from shards.ts so that the client's
 * one-file path does not import the shard code (see client.ts).
 */

import type {Synonym} from './synonyms.ts';

export const SHARDED_INDEX_FORMAT = 3;
/** Folder of the shard files, beside the manifest (`search/local-index/`). */
export const SHARD_DIR = 'local-index';

/** Terms are sharded by their first characters (whole term when shorter). */
export const SHARD_PREFIX_LENGTH = 2;
export const shardKey = (term: string): string => Array.from(term).slice(0, SHARD_PREFIX_LENGTH).join('');
/** File-name-safe form of a key: hex of its UTF-8 bytes. */
export const keyHex = (key: string): string => Array.from(new TextEncoder().encode(key), (b) => b.toString(16).padStart(2, '0')).join('');
/** The terms file of a shard key (the client fetches it while the shard reader loads). */
export const termsFile = (key: string): string => `t-${keyHex(key)}.json`;

export interface ShardManifest {
  format: typeof SHARDED_INDEX_FORMAT;
  engine: 'docs-search';
  /** Changes with the content: appended to file URLs (`?v=`) so no stale shard is mixed in. */
  version: string;
  origin: string;
  /** Per page: [facet index, pageRank, section count]. */
  pages: [number, number, number][];
  /** [language, docusaurus_tag, version or null]. */
  facets: [string, string, string | null][];
  /** One character per section: its lead record's type (`0`..`6`, `c`). */
  types: string;
  /** [section, level, position] where the lead record differs from what its type predicts. */
  leads: [number, number, number][];
  /** Sections per records file, in order (file n holds the n-th run of sections). */
  chunks: number[];
  /** Shard keys (prefixes) that have a terms file. */
  shards: string[];
  /** First letters that have a heads file. */
  heads: string[];
  /** The last word length with a vocabulary file (every length from 3 has one; the last holds every longer word too); absent: none. */
  vocab?: number;
  /** The synonyms the engine answers with (absent: none); see synonyms.ts. */
  synonyms?: Synonym[];
}

export function isShardManifest(file: unknown): file is ShardManifest {
  return !!file && typeof file === 'object' && (file as {format?: unknown}).format === SHARDED_INDEX_FORMAT;
}
