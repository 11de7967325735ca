/**
 * Reading a build's files (pages, sitemaps) safely: only regular files are opened. A FIFO would
 * block the read (and the crawl, deaf to SIGTERM) for ever, a device such as /dev/zero never ends,
 * a socket cannot be read: each is told by lstat before anything is opened, then opened without
 * following a link and without blocking, and checked again on the open file (it may have been
 * swapped in between). At most `maxBytes + 1` bytes are read, whatever the file's size says.
 */
import {closeSync, constants, fstatSync, lstatSync, openSync, readSync} from 'node:fs';
import {lstat, open} from 'node:fs/promises';

/** What a path is, in a few words, when it is not a regular file. */
export function fileKind(info: {isSymbolicLink(): boolean; isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean}): string {
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The path is not a regular file (kind: "a FIFO", "a device", …): it was not opened. */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly file: string,
    readonly kind: string,
  ) {
    super(`${file} is ${kind}, not a regular file`);
  }
}

/**
 * The bytes of `file`, a regular file (not a link: resolve links first), or undefined when it is
 * larger than `maxBytes`. Anything else is a NotRegularFileError, without opening it.
 */
export async function readRegularFile(file: string, maxBytes: number): Promise<Buffer | undefined> {
  const info = await lstat(file);
  if (!info.isFile()) throw new NotRegularFileError(file, fileKind(info));
  if (info.size > maxBytes) return undefined;
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw new NotRegularFileError(file, fileKind(opened));
    if (opened.size > maxBytes) return undefined;
    // Read until the end, never past maxBytes + 1 (the file may grow while it is read).
    const buffer = Buffer.allocUnsafe(Math.min(opened.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const {bytesRead} = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) return undefined;
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/**
 * readRegularFile, synchronously (for readers called synchronously, such as a sharded local
 * index's shard reader): the same checks, the same bound.
 */
export function readRegularFileSync(file: string, maxBytes: number): Buffer | undefined {
  const info = lstatSync(file);
  if (!info.isFile()) throw new NotRegularFileError(file, fileKind(info));
  if (info.size > maxBytes) return undefined;
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw new NotRegularFileError(file, fileKind(opened));
    if (opened.size > maxBytes) return undefined;
    const buffer = Buffer.allocUnsafe(Math.min(opened.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) return undefined;
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
