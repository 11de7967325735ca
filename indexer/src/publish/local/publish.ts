/**
 * Stage "publish-local": records → the static local index file shipped in the build
 * (LOCAL_INDEX_PATH), answered in the browser and by `docs-indexer search` through the same
 * engine (docs-search).
 */
import {mkdir, readFile} from 'node:fs/promises';
import {dirname} from 'node:path';
import {gzipSync} from 'node:zlib';
import writeFileAtomic from 'write-file-atomic';
import {checkOutputPath, outputFailure} from '../../output-file.ts';
import {LocalIndexError, LocalSearchEngine, packRecords, type LocalIndexFile, type SearchRecord} from 'docs-search';

export interface LocalIndexStats {
  file: string;
  records: number;
  bytes: number;
  gzipBytes: number;
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

export function buildLocalIndex(records: readonly SearchRecord[]): LocalIndexFile {
  return packRecords(records, commonOrigin(records));
}

export function serializeLocalIndex(records: readonly SearchRecord[]): string {
  return JSON.stringify(buildLocalIndex(records));
}

/**
 * Writes the index atomically (write-file-atomic: a temporary file renamed over FILE, removed if
 * the process is stopped) and returns its size. FILE's folder is created; an existing FILE must
 * be a regular file (OutputError otherwise).
 */
export async function writeLocalIndex(records: readonly SearchRecord[], file: string): Promise<LocalIndexStats> {
  const json = serializeLocalIndex(records);
  try {
    await mkdir(dirname(file), {recursive: true});
    await checkOutputPath(file);
    await writeFileAtomic(file, json);
  } catch (error) {
    throw outputFailure(file, error);
  }
  return {file, records: records.length, bytes: Buffer.byteLength(json), gzipBytes: gzipSync(json).length};
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
    return LocalSearchEngine.fromIndexFile(json);
  } catch (error) {
    throw new LocalIndexError(`${file} is ${(error as Error).message}`);
  }
}

export function formatKB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
