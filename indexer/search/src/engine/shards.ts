/**
 * The sharded local index (format 3): for a large site, an index the browser queries without
 * downloading it whole. See README.md (Index formats) for the files and how they are fetched.
 *
 * - `local-index.json` is a small manifest: the section table (what ranking reads of a section
 *   before its records are fetched: page, facets, heading level) and the file lists.
 * - `local-index/t-<hex>.json`: the terms starting with one 2-character prefix and their
 *   postings with the engine's weights (computed at build time over the whole site), and the
 *   sections whose own heading or table rows name them (names.ts).
 * - `local-index/h-<hex>.json`: for one first letter, the title and heading postings of its most
 *   frequent words (what a one-letter query reads).
 * - `local-index/r-<chunk>.json`: the records of consecutive sections (about RECORDS_CHUNK_BYTES
 *   of JSON), in the single-file format (format 2).
 * - `local-index/v-<length>.json`: every indexed term of one length (the last file: of that
 *   length or longer), fetched only to look up a word's typos: the terms files of the words a typo
 *   away are then fetched, so the engine forgives the same typos as one holding every term.
 */
import {RECORD_TYPES, type SearchRecord} from '../record/constants.ts';
import {LocalIndexError, packRecords, synonymsOf, unpackRecords} from './index-file.ts';
import type {Synonym} from './synonyms.ts';
import {keyHex, shardKey, SHARDED_INDEX_FORMAT, termsFile, type ShardManifest} from './manifest.ts';
import type {LocalSearchEngine, Postings} from './search.ts';
import {ShardedEngine} from './sharded-engine.ts';
import {RANKING} from './ranking.ts';
import {vocabFiles} from './vocab.ts';
import {roundWeight, WEIGHT_SCALE} from './fields.ts';
import {encodeNames} from './term-names.ts';

export {isShardManifest, keyHex, SHARD_DIR, SHARD_PREFIX_LENGTH, shardKey, SHARDED_INDEX_FORMAT, termsFile, type ShardManifest} from './manifest.ts';
export {decodeVocab, typoLengths, typoShardKeys, vocabFile, VOCAB_LONGEST} from './vocab.ts';

/** Words a one-letter query completes to (the engine's completion limit for one letter). */
export const HEAD_WORDS = RANKING.completionsPerLetter;
/**
 * Records files hold consecutive sections up to about this much JSON: a hit costs its chunk, so
 * smaller chunks cost fewer bytes per answer, at the price of more files (a page is about 2-3).
 */
export const RECORDS_CHUNK_BYTES = 4096;

/** What ranking needs of every section before any record is fetched. */
export interface SectionTable {
  pageOf: Int32Array;
  leadLevel: Int16Array;
  leadPosition: Int32Array;
  /** Index in RECORD_TYPES of the lead record's type. */
  leadType: Uint8Array;
  pageRank: Float32Array;
  pageFacets: {language: string; docusaurus_tag: string; version?: string}[];
}

export type ShardPostings = [string, Postings][];

const TYPE_CODES = '0123456c';

export const headsFile = (letter: string): string => `h-${keyHex(letter)}.json`;
export const recordsFile = (chunk: number): string => `r-${chunk}.json`;

const predictedLevel = (type: number) => (type < 7 ? 100 - 10 * type : 0);

/** [df, headingEnd, key deltas (restarting at headingEnd)..., weights...] */
function encodePostings(p: Postings, end = p.at.length): number[] {
  const out = [p.df, Math.min(p.headingEnd, end)];
  let prev = 0;
  for (let j = 0; j < end; j++) {
    if (j === p.headingEnd) prev = 0;
    out.push(p.at[j]! - prev);
    prev = p.at[j]!;
  }
  for (let j = 0; j < end; j++) out.push(roundWeight(p.weight[j]!));
  return out;
}

function decodePostings(list: unknown, partial: boolean): Postings {
  if (!Array.isArray(list) || list.length < 2 || (list.length - 2) % 2 !== 0) throw new LocalIndexError('not a local search index (malformed shard)');
  const m = (list.length - 2) / 2;
  const at = new Int32Array(m);
  const weight = new Float32Array(m);
  const headingEnd = list[1] as number;
  let prev = 0;
  for (let j = 0; j < m; j++) {
    if (j === headingEnd) prev = 0;
    prev += list[2 + j] as number;
    at[j] = prev;
    weight[j] = (list[2 + m + j] as number) / WEIGHT_SCALE;
  }
  return {at, weight, df: list[0] as number, headingEnd, partial};
}

/** What the sections name of the words of one terms file (see names.ts); undefined: none. */
export function decodeNames(file: unknown): Record<string, unknown> | undefined {
  const names = (file as {names?: unknown} | null)?.names;
  return names && typeof names === 'object' ? (names as Record<string, unknown>) : undefined;
}

/** Adds one terms or heads file to a sharded index's engine: its postings and names. */
export function addTermsFile(engine: ShardedEngine, file: unknown): void {
  engine.addTerms(decodeShard(file), decodeNames(file));
}

/** Reads one terms or heads file. */
export function decodeShard(file: unknown): ShardPostings {
  const f = file as {format?: unknown; heads?: unknown; terms?: unknown} | null;
  if (!f || f.format !== SHARDED_INDEX_FORMAT || !f.terms || typeof f.terms !== 'object') {
    throw new LocalIndexError(`not a local search index shard (format ${SHARDED_INDEX_FORMAT} expected)`);
  }
  const partial = f.heads === true;
  return Object.entries(f.terms as Record<string, unknown>).map(([term, list]) => [term, decodePostings(list, partial)]);
}

/** The section table of a manifest (checked). */
export function sectionTable(m: ShardManifest): SectionTable {
  if (!Array.isArray(m.pages) || !Array.isArray(m.facets) || typeof m.types !== 'string' || !Array.isArray(m.leads)) {
    throw new LocalIndexError('not a local search index (malformed manifest)');
  }
  const n = m.types.length;
  const pageOf = new Int32Array(n);
  const leadLevel = new Int16Array(n);
  const leadPosition = new Int32Array(n);
  const leadType = new Uint8Array(n);
  const pageRank = new Float32Array(n);
  let s = 0;
  m.pages.forEach(([, rank, count], p) => {
    for (let k = 0; k < count; k++, s++) {
      pageOf[s] = p;
      pageRank[s] = rank;
    }
  });
  if (s !== n) throw new LocalIndexError('not a local search index (section count mismatch)');
  for (let i = 0; i < n; i++) {
    const t = TYPE_CODES.indexOf(m.types[i]!);
    if (t < 0) throw new LocalIndexError('not a local search index (malformed manifest)');
    leadType[i] = t;
    leadLevel[i] = predictedLevel(t);
  }
  for (const [section, level, position] of m.leads) {
    leadLevel[section] = level;
    leadPosition[section] = position;
  }
  const pageFacets = m.pages.map(([f]) => {
    const [language, docusaurus_tag, version] = m.facets[f] ?? [];
    if (typeof language !== 'string' || typeof docusaurus_tag !== 'string') throw new LocalIndexError('not a local search index (malformed manifest)');
    return version === null || version === undefined ? {language, docusaurus_tag} : {language, docusaurus_tag, version};
  });
  return {pageOf, leadLevel, leadPosition, leadType, pageRank, pageFacets};
}

/** First section of every records file (and the section count at the end). */
export function chunkStarts(m: ShardManifest): number[] {
  if (!Array.isArray(m.chunks)) throw new LocalIndexError('not a local search index (malformed manifest)');
  const out = [0];
  for (const count of m.chunks) out.push(out[out.length - 1]! + count);
  if (out[out.length - 1] !== m.types.length) throw new LocalIndexError('not a local search index (record chunks do not cover the sections)');
  return out;
}

/** Records of one records file (the single-file format for one page). */
export function decodeRecords(file: unknown): SearchRecord[] {
  return unpackRecords(file);
}

/**
 * The files of a sharded index for records in page order, from the engine's own postings (so
 * the browser ranks as a whole-index engine would). Returns the manifest and every shard file
 * by name (under SHARD_DIR).
 */
export function buildShards(
  records: readonly SearchRecord[],
  origin: string,
  engine: Pick<LocalSearchEngine, 'terms' | 'posting' | 'lead' | 'pageOf' | 'records' | 'namesOf'>,
  synonyms: readonly Synonym[] = [],
): {manifest: ShardManifest; files: Map<string, string>} {
  const files = new Map<string, string>();
  // per section, its page and lead record
  const leads = Array.from(engine.lead, (i, s) => ({page: engine.pageOf[s]!, record: engine.records[i]!}));
  const facetIds = new Map<string, number>();
  const facets: ShardManifest['facets'] = [];
  const pages: ShardManifest['pages'] = [];
  let types = '';
  const leadExceptions: ShardManifest['leads'] = [];
  leads.forEach(({page, record: r}, s) => {
    // The manifest numbers sections page after page: a page's sections must follow each other.
    if (page !== pages.length - 1 && page !== pages.length) throw new Error(`records of page ${r.url_without_anchor} are not together`);
    if (!pages[page]) {
      const tuple: [string, string, string | null] = [r.language, r.docusaurus_tag, r.version ?? null];
      const key = JSON.stringify(tuple);
      let f = facetIds.get(key);
      if (f === undefined) {
        facetIds.set(key, (f = facets.length));
        facets.push(tuple);
      }
      pages[page] = [f, r.weight.pageRank, 0];
    }
    pages[page]![2] += 1;
    const t = RECORD_TYPES.indexOf(r.type);
    types += TYPE_CODES[t];
    if (r.weight.level !== predictedLevel(t) || r.weight.position !== 0) leadExceptions.push([s, r.weight.level, r.weight.position]);
  });
  // Records: runs of consecutive sections, cut at about RECORDS_CHUNK_BYTES of JSON.
  const sectionOfUrl = new Map<string, number>();
  leads.forEach(({record}, s) => sectionOfUrl.set(record.url, s));
  const bySection: SearchRecord[][] = leads.map(() => []);
  for (const r of records) {
    const s = sectionOfUrl.get(r.url);
    if (s === undefined) throw new Error(`record ${r.objectID} has no section`);
    bySection[s]!.push(r);
  }
  const chunks: number[] = [];
  let chunk: SearchRecord[] = [];
  let sectionsInChunk = 0;
  let bytes = 0;
  const flush = () => {
    if (sectionsInChunk === 0) return;
    files.set(recordsFile(chunks.length), JSON.stringify(packRecords(chunk, origin)));
    chunks.push(sectionsInChunk);
    chunk = [];
    sectionsInChunk = 0;
    bytes = 0;
  };
  for (const list of bySection) {
    const size = list.reduce((n, r) => n + (r.content?.length ?? 0) + 40, 0);
    if (sectionsInChunk > 0 && bytes + size > RECORDS_CHUNK_BYTES) flush();
    chunk.push(...list);
    sectionsInChunk++;
    bytes += size;
  }
  flush();
  // Terms, by prefix; heads, by first letter.
  const byKey = new Map<string, Record<string, number[]>>();
  const byLetter = new Map<string, [string, Postings][]>();
  const vocabulary: string[] = [];
  for (const [term, id] of engine.terms) {
    const p = engine.posting(id);
    vocabulary.push(term);
    const key = shardKey(term);
    let shard = byKey.get(key);
    if (!shard) byKey.set(key, (shard = {}));
    shard[term] = encodePostings(p);
    const letter = Array.from(term)[0]!;
    if (term.length > letter.length) {
      let list = byLetter.get(letter);
      if (!list) byLetter.set(letter, (list = []));
      list.push([term, p]);
    }
  }
  // What sections name of a word goes with the word's postings (a word no section holds, a
  // table row's first cell, gets a terms file of its own), so that ranking reads it as soon as
  // the word's file is here, before any record.
  const namesByKey = new Map<string, Record<string, number[]>>();
  for (const [word, list] of encodeNames(leads.length, (s) => engine.namesOf(s))) {
    const key = shardKey(word);
    let names = namesByKey.get(key);
    if (!names) namesByKey.set(key, (names = {}));
    names[word] = list;
  }
  const shards = [...new Set([...byKey.keys(), ...namesByKey.keys()])].sort();
  for (const key of shards) {
    const names = namesByKey.get(key);
    files.set(termsFile(key), JSON.stringify({format: SHARDED_INDEX_FORMAT, terms: byKey.get(key) ?? {}, ...(names ? {names} : {})}));
  }
  const heads = [...byLetter.keys()].sort();
  for (const letter of heads) {
    // The engine's completions of one letter: most frequent first, then shortest, then in the words' order.
    const top = byLetter.get(letter)!.sort((a, b) => b[1].df - a[1].df || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1)).slice(0, HEAD_WORDS);
    const terms = Object.fromEntries(top.map(([term, p]) => [term, encodePostings(p, p.headingEnd)]));
    files.set(headsFile(letter), JSON.stringify({format: SHARDED_INDEX_FORMAT, heads: true, terms}));
  }
  const vocab = vocabFiles(vocabulary, files);
  let h = 0x811c9dc5;
  for (const [name, text] of [...files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    for (const part of [name, text]) for (let i = 0; i < part.length; i++) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193);
  }
  const manifest: ShardManifest = {
    format: SHARDED_INDEX_FORMAT,
    engine: 'docs-search',
    version: (h >>> 0).toString(16).padStart(8, '0'),
    origin,
    pages,
    facets,
    types,
    leads: leadExceptions,
    chunks,
    shards,
    heads,
    vocab,
    ...(synonyms.length > 0 ? {synonyms: [...synonyms]} : {}),
  };
  return {manifest, files};
}

/**
 * A whole sharded index read at once (Node: `docs-indexer search`, search:eval): `read` returns
 * the parsed JSON of a file of SHARD_DIR.
 */
export function engineFromShards(manifest: ShardManifest, read: (file: string) => unknown): ShardedEngine {
  const engine = new ShardedEngine(sectionTable(manifest)).useSynonyms(synonymsOf(manifest));
  for (const key of manifest.shards) addTermsFile(engine, read(termsFile(key)));
  const starts = chunkStarts(manifest);
  manifest.chunks.forEach((_, c) => engine.addRecords(starts[c]!, decodeRecords(read(recordsFile(c)))));
  return engine;
}
