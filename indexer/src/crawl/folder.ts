/**
 * The folder crawl: every `*.html` file of a build folder, routed as the site serves it, the
 * site's URL read from the home page's canonical link (else the sitemap), priorities from the
 * build's sitemaps; pages handed to onPage in order as soon as they are extracted.
 */
import type {Dirent} from 'node:fs';
import {lstat, readdir, realpath, stat} from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import {extractPageDetailed} from '../extract/extract.ts';
import {decodePage} from '../extract/charset.ts';
import {MAX_PAGE_BYTES} from '../extract/pool.ts';
import {SourceError, UsageError} from '../errors.ts';
import {fileKind, NotRegularFileError, readRegularFile} from '../read-regular.ts';
import {pageLinks} from './links.ts';
import {checkInterrupted, concurrencyOf, crawledPage, duplicateOf, extractWith, workerPool, type ExtractedResult, type PageResult} from './pages.ts';
import {MAX_SITEMAP_BYTES, parseSitemap, ranksFrom, type SitemapEntry} from './sitemap.ts';
import type {CrawlOptions, SkippedPage} from './types.ts';
import {compare, encodePath, normalizeBaseUrl, orderKey, servedPath, siteUrlsOf} from './urls.ts';

/**
 * A build's file read whole, or undefined when it is larger than `maxBytes` (the page limits
 * hold for every file the crawl reads, the home page and the sitemaps included) or when it is
 * not a regular file inside the folder (nothing else is ever opened: read-regular.ts).
 */
async function readLimited(file: string, maxBytes: number, root?: string): Promise<Buffer | undefined> {
  let target = file;
  if (root !== undefined) {
    const resolved = await resolveInside(file, root);
    if (typeof resolved !== 'string') return undefined;
    target = resolved;
  }
  try {
    return await readRegularFile(target, maxBytes);
  } catch (error) {
    if (error instanceof NotRegularFileError) return undefined;
    throw error;
  }
}

/** Whether `file` (a real path) lies inside `root` (a real path). */
function isInside(file: string, root: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * The real path of `file` when it is a regular file inside `root` (the folder's real path),
 * followed through symbolic links; else what it is (`{kind}`), for the warning. Never opens it.
 */
async function resolveInside(file: string, root: string): Promise<string | {kind: string}> {
  const info = await lstat(file);
  if (info.isFile()) return file;
  if (!info.isSymbolicLink()) return {kind: fileKind(info)};
  let real: string;
  try {
    real = await realpath(file);
  } catch {
    return {kind: 'a symbolic link to nothing'};
  }
  if (!isInside(real, root)) return {kind: 'a symbolic link to outside the folder'};
  const target = await lstat(real);
  return target.isFile() ? real : {kind: `a symbolic link to ${fileKind(target)}`};
}

/**
 * The URL of the build folder's home page (its canonical link, else the sitemap's shortest URL)
 * and the URLs of its other locales (its hreflang alternates), which tell the site's root when
 * the folder holds one locale of a site (`build/fr/`).
 */
async function siteUrlFromBuild(folder: string, root: string, sitemaps: string[]): Promise<{url: string; alternates: string[]} | undefined> {
  try {
    // A home page over the size limit is not read (the crawl skips it as too-large): the sitemap tells the root.
    const bytes = await readLimited(path.join(folder, 'index.html'), MAX_PAGE_BYTES, root);
    if (bytes) {
      const html = decodePage(bytes);
      const page = extractPageDetailed(html, {url: 'https://placeholder.invalid/', validate: false});
      if (page.canonical && /^https?:\/\//i.test(page.canonical)) return {url: page.canonical, alternates: pageLinks(html).alternates};
    }
  } catch {
    // no home page (or one nested too deep): try the sitemap
  }
  if (!sitemaps.includes('sitemap.xml')) return undefined;
  try {
    const xml = await readLimited(path.join(folder, 'sitemap.xml'), MAX_SITEMAP_BYTES, root);
    const entries = xml ? parseSitemap(xml.toString('utf8')).urls : [];
    // The shortest URL of the sitemap is the site root (every page lives below it).
    const shortest = entries.sort((a, b) => a.loc.length - b.loc.length)[0];
    if (shortest) return {url: new URL('./', shortest.loc).toString(), alternates: shortest.alternates};
  } catch {
    // no sitemap either
  }
  return undefined;
}

/** A file of the build that is read: its name in the folder, and the path to open (a link's target). */
interface BuildFile {
  file: string;
  real: string;
}

/** A file name's bytes for a message: printable ASCII as it is, every other byte as `\xNN`. */
export function escapedName(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte >= 0x20 && byte < 0x7f && byte !== 0x5c ? String.fromCharCode(byte) : `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** A folder's entry found by walk(): its path from the folder (valid UTF-8 all the way), and what it is. */
interface WalkEntry {
  file: string;
  entry: Dirent<Buffer>;
}

/**
 * Every entry below `folder` (not following symbolic links to folders, as `readdir`'s recursive
 * walk does). Names are read as bytes: a name that is not UTF-8 cannot be opened through a
 * string path (decoding it replaces its bad bytes, and the path then names nothing), so such
 * an entry is listed in `badNames` (escaped), not walked or read, instead of failing the walk.
 */
async function walk(folder: string): Promise<{entries: WalkEntry[]; badNames: {file: string; shown: string; folder: boolean}[]}> {
  const entries: WalkEntry[] = [];
  const badNames: {file: string; shown: string; folder: boolean}[] = [];
  const pending = [''];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const list = await readdir(path.join(folder, dir), {withFileTypes: true, encoding: 'buffer'});
    for (const entry of list) {
      const bytes = entry.name;
      const name = bytes.toString('utf8');
      const file = dir === '' ? name : path.join(dir, name);
      if (!Buffer.from(name, 'utf8').equals(bytes)) {
        badNames.push({file, shown: `${dir === '' ? '' : `${dir}${path.sep}`}${escapedName(bytes)}`, folder: entry.isDirectory()});
        continue;
      }
      if (entry.isDirectory()) pending.push(file);
      else entries.push({file, entry});
    }
  }
  return {entries, badNames};
}

/**
 * The build's HTML files and sitemaps (`sitemap.xml` at the root and in locale folders): regular
 * files, and symbolic links to regular files inside the folder (read at their target). Other
 * `*.html` entries (FIFOs, devices, sockets, links to elsewhere) are listed in `special`, to be
 * skipped with a warning, and so are pages (or folders) whose names are not UTF-8; none of them is opened.
 */
async function listFiles(folder: string, root: string): Promise<{html: BuildFile[]; sitemaps: BuildFile[]; special: {file: string; kind: string; reason?: 'bad-file-name'}[]}> {
  const {entries, badNames} = await walk(folder);
  const html: BuildFile[] = [];
  const sitemaps: BuildFile[] = [];
  const special: {file: string; kind: string; reason?: 'bad-file-name'}[] = [];
  for (const bad of badNames) {
    if (bad.folder) special.push({file: bad.file, kind: `${bad.shown}: a folder whose name is not UTF-8 (its pages were not read)`, reason: 'bad-file-name'});
    else if (/\.html?$/i.test(bad.file)) special.push({file: bad.file, kind: `${bad.shown}: its name is not UTF-8`, reason: 'bad-file-name'});
  }
  for (const {file, entry} of entries) {
    const name = path.basename(file);
    const isHtml = /\.html?$/i.test(name);
    if (!isHtml && name !== 'sitemap.xml') continue;
    let real: string | {kind: string} = path.join(folder, file);
    if (!entry.isFile()) {
      real = entry.isSymbolicLink() ? await resolveInside(real, root) : {kind: fileKind(entry)};
    }
    if (typeof real !== 'string') {
      if (isHtml) special.push({file, kind: real.kind});
      continue;
    }
    (isHtml ? html : sitemaps).push({file, real});
  }
  const byName = (a: BuildFile, b: BuildFile): number => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  return {html: html.sort(byName), sitemaps: sitemaps.sort(byName), special};
}

export async function crawlFolder(folder: string, options: CrawlOptions) {
  const limit = pLimit(concurrencyOf(options));
  let info;
  try {
    info = await stat(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SourceError(
      code === 'ENOENT'
        ? `cannot read SOURCE "${folder}": no such folder (build the site first: npm run build)`
        : `cannot read SOURCE "${folder}": ${code ?? String(error)}`,
    );
  }
  if (!info.isDirectory()) throw new SourceError(`SOURCE "${folder}" is not a folder or an http(s) URL`);
  let listing: Awaited<ReturnType<typeof listFiles>>;
  let root: string;
  try {
    root = await realpath(folder);
    listing = await listFiles(folder, root);
  } catch (error) {
    throw new SourceError(`cannot read SOURCE "${folder}": ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const files = listing.html;
  if (files.length === 0) throw new SourceError(`SOURCE "${folder}" contains no HTML pages`);
  const home = await siteUrlFromBuild(folder, root, listing.sitemaps.map((s) => s.file));
  const built = home?.url;
  const configured = options.baseUrl ?? built;
  if (!configured) {
    throw new UsageError(`cannot tell the site's URL from "${folder}": pass --base-url URL`);
  }
  const {site, folderBase: baseUrl} = siteUrlsOf(built ? normalizeBaseUrl(built, "the build's canonical URL") : undefined, home?.alternates ?? [], options.baseUrl);
  const entries: SitemapEntry[] = [];
  for (const {real} of listing.sitemaps) {
    try {
      const xml = await readLimited(real, MAX_SITEMAP_BYTES);
      if (xml) entries.push(...parseSitemap(xml.toString('utf8')).urls);
    } catch {
      // an unreadable sitemap only loses priorities
    }
  }
  const ranks = ranksFrom(entries, site);
  const total = files.length;
  options.onEvent?.({type: 'start', source: folder, mode: 'folder', baseUrl, total});
  let done = 0;
  const skipped: SkippedPage[] = [];
  const urlOf = (file: string): string => new URL(encodePath(servedPath(file)), baseUrl).toString();
  // FIFOs, devices, sockets and links out of the folder named like pages, and names that are not UTF-8: never opened, reported.
  for (const {file, kind, reason} of listing.special) {
    const page: SkippedPage = reason ? {url: urlOf(file), reason, detail: kind} : {url: urlOf(file), reason: 'not-a-file', detail: `${file} is ${kind}`};
    skipped.push(page);
    options.onEvent?.({type: 'skip', ...page, done, total});
  }
  // Pages are handed to onPage in order: finished pages wait in `ready` for their turn.
  const jobs = files
    .map(({file, real}) => {
      const url = urlOf(file);
      return {file: real, url, order: orderKey(url)};
    })
    .sort((a, b) => compare(a.order, b.order) || compare(a.url, b.url));
  const ready = new Map<number, PageResult>();
  const emitted = new Set<string>();
  let nextToEmit = 0;
  let emitting: Promise<void> = Promise.resolve();
  const collect = options.collect !== false;
  const drain = async (): Promise<void> => {
    for (let page = ready.get(nextToEmit); page; page = ready.get(nextToEmit)) {
      ready.delete(nextToEmit);
      nextToEmit += 1;
      if (page.count > 0) {
        // Two files that say they are the same page (canonical links): the first one counts.
        if (emitted.has(page.url)) {
          page.duplicate = true;
          const alias = duplicateOf(page);
          skipped.push(alias);
          options.onEvent?.({type: 'skip', ...alias, done, total});
        } else {
          emitted.add(page.url);
          await options.onPage?.(crawledPage(page));
        }
      }
      if (!collect || page.duplicate) {
        delete page.records;
        delete page.json;
        delete page.packed;
      }
    }
  };
  const pool = workerPool(options, files.length);
  const validate = {
    ...(options.validate === undefined ? {} : {validate: options.validate}),
    ...(options.maxRecordBytes === undefined ? {} : {maxRecordBytes: options.maxRecordBytes}),
  };
  const extract = (file: string, url: string, order: string): Promise<ExtractedResult> =>
    extractWith(pool, {
      file,
      url,
      site,
      pageRank: options.pageRank?.(url) ?? ranks.get(order) ?? 0,
      pack: collect,
      digests: collect && Boolean(options.digests),
      ...validate,
    });
  let pages: PageResult[];
  try {
    pages = await Promise.all(
      jobs.map(({file, url, order}, index) =>
        limit(async (): Promise<PageResult> => {
          checkInterrupted(options);
          const {skipped: skip, detail, ...extracted} = await extract(file, url, order);
          const result: PageResult = {...extracted, order, ...(extracted.url === url ? {} : {routed: url})};
          done += 1;
          if (skip) {
            const page: SkippedPage = {url: result.url, reason: skip, ...(detail ? {detail} : {})};
            skipped.push(page);
            options.onEvent?.({type: 'skip', ...page, done, total});
          } else {
            options.onEvent?.({type: 'page', url: result.url, records: result.count, done, total});
          }
          ready.set(index, result);
          emitting = emitting.then(drain);
          await emitting;
          return result;
        }),
      ),
    );
  } catch (error) {
    limit.clearQueue(); // the crawl failed: start no more pages
    throw error;
  } finally {
    await pool?.close();
  }
  return {pages, skipped, baseUrl, mode: 'folder' as const, streamed: true};
}
