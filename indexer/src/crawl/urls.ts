/**
 * The crawl's URL rules: where a file of a build folder is served (`docs/foo.html` → `docs/foo`),
 * the site's root and record base (`--base-url`, a locale one segment below the root), the sort
 * key of a page, and URLs fit for a message (credentials masked).
 */
import path from 'node:path';
import type {SiteUrls} from '../extract/extract.ts';
import {UsageError} from '../errors.ts';

export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A URL's sort key: a trailing slash does not count, so `/docs/a/` sorts where `/docs/a` does. */
export function orderKey(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

export function isHttpSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** A URL fit for a message: user name and password replaced by `***`. */
export function redactUrl(text: string): string {
  return text.replace(/(\bhttps?:\/\/)[^/?#\s@]*@/gi, '$1***@');
}

export function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** An absolute http(s) URL without query, fragment or credentials, ending with a slash. */
export function normalizeBaseUrl(value: string, what = '--base-url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${what} must be an absolute http(s) URL (got "${redactUrl(value)}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${what} must be an absolute http(s) URL (got "${redactUrl(value)}")`);
  }
  if (what === '--base-url' && (url.username || url.password)) {
    // Record URLs are public: a user name or password must never be copied into them.
    throw new UsageError(`--base-url must not contain a user name or password (got "${redactUrl(value)}")`);
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  url.search = '';
  return withSlash(url.toString());
}

/**
 * The site's root, given the URL of the crawled folder or SOURCE (`sourceRoot`, from its home
 * page) and that page's hreflang alternates: an alternate one path segment above the source is
 * the site's root (crawling `build/fr/` of a site whose default locale is at `/`, the root is
 * `/`, not `/fr/`). Without one, the source is the root.
 */
function siteRootOf(sourceRoot: string, alternates: readonly string[]): string {
  let root = sourceRoot;
  for (const href of alternates) {
    let candidate: string;
    try {
      candidate = normalizeBaseUrl(new URL(href, sourceRoot).toString(), 'an alternate URL');
    } catch {
      continue;
    }
    // A locale lives one path segment below the site's root (`fr/`, `zh-Hans/`): other alternates are other sites.
    if (sourceRoot.startsWith(candidate) && /^[^/]+\/$/.test(sourceRoot.slice(candidate.length))) root = candidate;
  }
  return root;
}

/**
 * How record URLs are made: a canonical below the site's root is moved onto the record base
 * (`--base-url`, else that root), so a locale keeps its path (`fr/…`); a page without one is
 * routed below `folderBase`, the crawled folder's (or SOURCE's) place on the record base.
 */
export function siteUrlsOf(sourceRoot: string | undefined, alternates: readonly string[], baseUrl: string | undefined): {site: SiteUrls; folderBase: string} {
  const root = sourceRoot === undefined ? undefined : siteRootOf(sourceRoot, alternates);
  const base = baseUrl ? normalizeBaseUrl(baseUrl) : (root as string);
  if (sourceRoot === undefined || root === undefined) return {site: {root: base, base}, folderBase: base};
  return {site: {root, base}, folderBase: new URL(encodePath(decodeURIComponent(sourceRoot.slice(root.length))), base).toString()};
}

/** `docs/foo.html` → `docs/foo`; `docs/index.html` → `docs/`; `index.html` → ``. */
export function servedPath(relativeFile: string): string {
  const posix = relativeFile.split(path.sep).join('/');
  if (posix === 'index.html') return '';
  if (posix.endsWith('/index.html')) return posix.slice(0, -'index.html'.length);
  return posix.replace(/\.html?$/, '');
}

export function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}
