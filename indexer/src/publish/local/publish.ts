/**
 * Stage "publish-local": records → the static local index file shipped in the build
 * (LOCAL_INDEX_PATH), answered in the browser and by `docs-indexer search` through the same
 * engine (docs-search).
 */
import {mkdir, rename, rm, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {gzipSync} from 'node:zlib';
import writeFileAtomic from 'write-file-atomic';
import {checkOutputPath, outputFailure} from '../../output-file.ts';
import {NotRegularFileError, readRegularFileSync} from '../../read-regular.ts';
import {
  isShardManifest,
  LOCAL_INDEX_FORMAT,
  LocalIndexError,
  LocalSearchEngine,
  packRecords,
  SHARD_DIR,
  type LocalIndexFile,
  type SearchRecord,
  type ShardManifest,
  type Synonym,
} from 'docs-search';
import {buildShards, engineFromShards} from 'docs-search/shards';

export interface LocalIndexStats {
  file: string;
  records: number;
  /** The index file (a sharded index: its manifest). */
  bytes: number;
  gzipBytes: number;
  /** A sharded index: its files beside the manifest, and their total size. */
  shards?: {files: number; bytes: number; gzipBytes: number};
}

/**
 * Above this many pages the index is sharded (format 3) rather than one file (format 2).
 * Measured with indexer/bench/search.ts (cold first answer under Lighthouse mobile throttling; our pages
 * with altered words): at 23 pages one file and the sharded form answer first alike (2.3 s and
 * 1.9 s, within the noise of 3 samples each) and with one file every later keystroke is answered
 * without a request, so our site keeps one file; one file's cold answer grows with the site
 * (72 s at 917 pages, 25x the sharded form's 2.9 s), so it stops a little above our size.
 */
export const SHARD_ABOVE_PAGES = 50;

export interface WriteLocalIndexOptions {
  /** `auto` (default): sharded above SHARD_ABOVE_PAGES pages. */
  sharded?: boolean | 'auto';
  /** Synonyms the engine answers with, carried in the index (see readSynonymsFile). */
  synonyms?: readonly Synonym[];
}

/** The origin shared by every record URL (stripped from the file), or '' when they differ. */
export function commonOrigin(records: readonly SearchRecord[]): string {
  let origin: string | null = null;
  for (const r of records) {
    const o = new URL(r.url).origin;
    if (origin === null) origin = o;
    else if (origin !== o) return '';
  }
  return origin ?? '';
}

export function buildLocalIndex(records: readonly SearchRecord[], synonyms: readonly Synonym[] = []): LocalIndexFile {
  return packRecords(records, commonOrigin(records), synonyms);
}

export function serializeLocalIndex(records: readonly SearchRecord[], synonyms: readonly Synonym[] = []): string {
  return JSON.stringify(buildLocalIndex(records, synonyms));
}

/**
 * Writes the index atomically and returns its size. One file: write-file-atomic (a temporary file
 * renamed over FILE, removed if the process is stopped). Sharded: the shard folder is written whole
 * beside the old one, swapped in, then the manifest is written atomically. FILE's folder is created;
 * an existing FILE must be a regular file (OutputError otherwise).
 */
export async function writeLocalIndex(records: readonly SearchRecord[], file: string, options: WriteLocalIndexOptions = {}): Promise<LocalIndexStats> {
  const pages = new Set(records.map((r) => r.url_without_anchor)).size;
  const sharded = options.sharded === true || ((options.sharded ?? 'auto') === 'auto' && pages > SHARD_ABOVE_PAGES);
  const shardDir = join(dirname(file), SHARD_DIR);
  try {
    await mkdir(dirname(file), {recursive: true});
    await checkOutputPath(file);
    if (!sharded) {
      const json = serializeLocalIndex(records, options.synonyms);
      await writeFileAtomic(file, json);
      await rm(shardDir, {recursive: true, force: true});
      return {file, records: records.length, bytes: Buffer.byteLength(json), gzipBytes: gzipSync(json).length};
    }
    const origin = commonOrigin(records);
    const {manifest, files} = buildShards(records, origin, new LocalSearchEngine([...records]), options.synonyms);
    const tmpDir = `${shardDir}.${process.pid}.tmp`;
    await rm(tmpDir, {recursive: true, force: true});
    await mkdir(tmpDir, {recursive: true});
    let bytes = 0;
    let gzipBytes = 0;
    for (const [name, text] of files) {
      await writeFile(join(tmpDir, name), text);
      bytes += Buffer.byteLength(text);
      gzipBytes += gzipSync(text).length;
    }
    const json = JSON.stringify(manifest);
    await rm(shardDir, {recursive: true, force: true});
    await rename(tmpDir, shardDir);
    await writeFileAtomic(file, json);
    return {
      file,
      records: records.length,
      bytes: Buffer.byteLength(json),
      gzipBytes: gzipSync(json).length,
      shards: {files: files.size, bytes, gzipBytes},
    };
  } catch (error) {
    throw outputFailure(file, error);
  }
}

/**
 * The largest local index file (or manifest, or shard file) `docs-indexer search` reads. A real
 * one-file index holds at most 50 pages (larger sites are sharded) and a manifest a few
 * numbers per page, so a file past this is not an index of ours; parsing it would take several
 * times its size in memory (a 473 MB file took more than 3 GB).
 */
export const MAX_LOCAL_INDEX_BYTES = 64 * 1024 * 1024;

/** A local index file's bytes: a regular file (never a FIFO or a device), at most MAX_LOCAL_INDEX_BYTES. */
function readIndexBytes(file: string): Buffer {
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularFileSync(file, MAX_LOCAL_INDEX_BYTES);
  } catch (error) {
    if (error instanceof NotRegularFileError) throw new LocalIndexError(`the local search index ${file} is ${error.kind}, not a regular file`);
    const code = (error as NodeJS.ErrnoException).code;
    throw new LocalIndexError(
      code === 'ENOENT'
        ? `no local search index at ${file} (build the site first: npm run build)`
        : `cannot read the local search index ${file} (${code ?? String(error)})`,
    );
  }
  if (bytes === undefined) throw new LocalIndexError(`${file} is larger than ${MAX_LOCAL_INDEX_BYTES / 1024 / 1024} MB: not a local search index`);
  return bytes;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isText = (value: unknown): boolean => typeof value === 'string';
const isTextOrNull = (value: unknown): boolean => value === null || typeof value === 'string';

/**
 * What is wrong with a local index's counts and types, before the engine walks them (a manifest
 * claiming 10^15 sections would have it loop for ever, a number where a text belongs fails deep
 * inside it): undefined when it is sound. The counts must add up to what the file holds.
 */
export function localIndexProblem(json: unknown): string | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return 'not an object';
  const f = json as Record<string, unknown>;
  if (typeof f.types !== 'string') return '"types" is not a text';
  const count = f.types.length;
  if (!Array.isArray(f.pages)) return '"pages" is not a list';
  if (f.synonyms !== undefined && !Array.isArray(f.synonyms)) return '"synonyms" is not a list';
  if (isShardManifest(json)) {
    if (!Array.isArray(f.facets) || !f.facets.every((t) => Array.isArray(t) && isText(t[0]) && isText(t[1]) && isTextOrNull(t[2]))) return 'malformed "facets"';
    const facets = f.facets.length;
    let sections = 0;
    for (const page of f.pages as unknown[]) {
      if (!Array.isArray(page) || !isCount(page[0]) || page[0] >= facets || typeof page[1] !== 'number' || !isCount(page[2])) return 'malformed "pages"';
      sections += page[2];
      if (sections > count) return `its pages claim more sections than its ${count} section types`;
    }
    if (sections !== count) return `its pages hold ${sections} sections, its types ${count}`;
    if (!Array.isArray(f.chunks) || !f.chunks.every(isCount)) return 'malformed "chunks"';
    if ((f.chunks as number[]).reduce((a, b) => a + b, 0) !== count) return 'its record chunks do not cover its sections';
    if (!Array.isArray(f.leads) || !f.leads.every((l) => Array.isArray(l) && l.length === 3 && l.every(isCount) && (l[0] as number) < count)) return 'malformed "leads"';
    for (const key of ['shards', 'heads'] as const) if (!Array.isArray(f[key]) || !(f[key] as unknown[]).every(isText)) return `malformed "${key}"`;
    return undefined;
  }
  let records = 0;
  for (const page of f.pages as unknown[]) {
    if (!Array.isArray(page) || page.length < 7 || !isText(page[0]) || !isText(page[1]) || !isText(page[2]) || !isText(page[3]) || !isTextOrNull(page[4]) || typeof page[5] !== 'number' || !isCount(page[6])) {
      return 'malformed "pages"';
    }
    records += page[6];
    if (records > count) return `its pages claim more records than its ${count} record types`;
  }
  if (records !== count) return `its pages hold ${records} records, its types ${count}`;
  if (!Array.isArray(f.texts) || f.texts.length !== count || !f.texts.every(isTextOrNull)) return '"texts" is not one text (or null) per record';
  if (!Array.isArray(f.exceptions) || !f.exceptions.every((e) => Array.isArray(e) && isCount(e[0]) && (e[0] as number) < count && !!e[1] && typeof e[1] === 'object')) {
    return 'malformed "exceptions"';
  }
  return undefined;
}

/** Reads a local index file into a ready engine; any problem is a one-line LocalIndexError. */
export async function loadLocalIndex(file: string): Promise<LocalSearchEngine> {
  const bytes = readIndexBytes(file);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new LocalIndexError(`${file} is not a local search index (invalid JSON)`);
  }
  // Files of neither format are refused by the engine (it names the format it expects).
  const ours = isShardManifest(json) || (json as {format?: unknown} | null)?.format === LOCAL_INDEX_FORMAT;
  const problem = ours ? localIndexProblem(json) : undefined;
  if (problem) throw new LocalIndexError(`${file} is not a local search index (${problem})`);
  try {
    if (isShardManifest(json)) return engineFromShards(json as ShardManifest, (name) => readShard(join(dirname(file), SHARD_DIR, name)));
    return LocalSearchEngine.fromIndexFile(json);
  } catch (error) {
    throw new LocalIndexError(`${file} is ${(error as Error).message}`);
  }
}

function readShard(file: string): unknown {
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularFileSync(file, MAX_LOCAL_INDEX_BYTES);
  } catch (error) {
    const why = error instanceof NotRegularFileError ? `is ${error.kind}` : `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    throw new LocalIndexError(`a sharded local search index whose file ${file} ${why}`);
  }
  if (bytes === undefined) throw new LocalIndexError(`a sharded local search index whose file ${file} is larger than ${MAX_LOCAL_INDEX_BYTES / 1024 / 1024} MB`);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new LocalIndexError(`a sharded local search index whose file ${file} is not JSON`);
  }
}

export function formatKB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
