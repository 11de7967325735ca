/**
 * Where the indexer writes a file (`crawl --out FILE`, the local index): only to a regular file
 * or a new path in an existing folder. A symbolic link, FIFO, device or folder is refused before
 * any work starts: the write goes through a temporary file renamed over the target, which would
 * silently replace a link or a FIFO instead of writing through it.
 */
import {lstat, stat} from 'node:fs/promises';
import {dirname, resolve} from 'node:path';
import {OutputError} from './errors.ts';
import {fileKind} from './read-regular.ts';

/** Resolves when `file` is a regular file or a new path whose folder exists; else an OutputError. */
export async function checkOutputPath(file: string): Promise<void> {
  let info;
  try {
    info = await lstat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new OutputError(`cannot write ${file} (${code ?? String(error)})`, {cause: error});
    const folder = dirname(resolve(file));
    let folderInfo;
    try {
      folderInfo = await stat(folder);
    } catch {
      throw new OutputError(`cannot write ${file}: the folder ${folder} does not exist`);
    }
    if (!folderInfo.isDirectory()) throw new OutputError(`cannot write ${file}: ${folder} is not a folder`);
    return;
  }
  if (!info.isFile() || info.isSymbolicLink()) {
    throw new OutputError(`refusing to write ${file}: it is ${fileKind(info)} (give a regular file or a new path)`);
  }
}

/** An error met while writing `file`, as the one-line OutputError the CLI prints. */
export function outputFailure(file: string, error: unknown): OutputError {
  if (error instanceof OutputError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new OutputError(`cannot write ${file} (${code ?? (error instanceof Error ? error.message : String(error))})`, {cause: error});
}
