/**
 * Stage "publish-local": records → the static local index file shipped in the build
 * (LOCAL_INDEX_PATH), answered in the browser and by `docs-indexer search` through the same
 * engine (docs-search).
 */
import {readFileSync} from 'node:fs';
import {mkdir, readFile, rename, rm, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {gzipSync} from 'node:zlib';
import writeFileAtomic from 'write-file-atomic';
import {checkOutputPath, outputFailure} from '../../output-file.ts';
import {
  isShardManifest,
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

/** Reads a local index file into a ready engine; any problem is a one-line LocalIndexError. */
export async function loadLocalIndex(file: string): Promise<LocalSearchEngine> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new LocalIndexError(
      code === 'ENOENT'
        ? `no local search index at ${file} (build the site first: npm run build)`
        : `cannot read the local search index ${file} (${code ?? String(error)})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LocalIndexError(`${file} is not a local search index (invalid JSON)`);
  }
  try {
    if (isShardManifest(json)) return engineFromShards(json as ShardManifest, (name) => readShard(join(dirname(file), SHARD_DIR, name)));
    return LocalSearchEngine.fromIndexFile(json);
  } catch (error) {
    throw new LocalIndexError(`${file} is ${(error as Error).message}`);
  }
}

function readShard(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new LocalIndexError(`a sharded local search index whose file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new LocalIndexError(`a sharded local search index whose file ${file} is not JSON`);
  }
}

export function formatKB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
