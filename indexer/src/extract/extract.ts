/**
 * Extract stage: one page's HTML → DocSearch v3 records.
 *
 * The HTML is read in one streaming pass over htmlparser2's parser events (page-reader.ts): no
 * DOM is built. The pass yields the page's metadata and the article's headings and text runs in
 * document order; this file turns them into records.
 *
 * Rules (issues 7 and 13):
 * - lvl0 follows DocSearch's Docusaurus template: docs pages get their top-level sidebar
 *   category ("API v1", "API v2"), else "Documentation"; other pages (blog, custom pages) get
 *   the label of the navbar item marked active ("Blog"), else "Home" for the page the navbar's
 *   brand links to (the home page of the site or of its locale), else "Pages".
 * - lvl1 is the page title (its h1, else `<title>` without the site-name suffix); lvl2–lvl6 are
 *   h2–h6 with their anchors; the hash-link ("Direct link to …") is not part of the text.
 * - content is every run of text in the article: paragraphs, list items, admonitions, details,
 *   one record per table row (cells joined by " · ", header rows skipped) and code blocks
 *   (payload samples name fields and error codes people search for).
 * - Navbar, sidebar, footer, table of contents, breadcrumbs, pagination, edit links, tab labels,
 *   copy buttons and category cards (they repeat other pages) are ignored.
 * - Skipped pages: `<meta name="robots" content="noindex">`, the not-found page (its title,
 *   "Page Not Found" in any locale Docusaurus ships), the search page (it has no content of its
 *   own), the blog's and the docs' listing pages (post lists, tags, authors: they repeat their
 *   posts' excerpts and docs' descriptions; LIST_PAGES), and files that are not HTML (empty, or binary: a NUL byte in the first kilobyte).
 *   A page's path never decides (a doc at `/docs/errors/404` is indexed).
 * - The record URL is what the page says it is: its `<link rel="canonical">` (else `og:url`)
 *   when it lies below the site's root, moved onto the record base (`--base-url`); else the
 *   URL the crawler routed the page to. So a folder crawl and a URL crawl agree.
 * - Control characters (C0 but tab/newline, DEL, C1) never reach a record.
 * - Text is HTML-escaped exactly once, here; no record exceeds `maxRecordBytes` (MAX_RECORD_BYTES by
 *   default): the size rule is at RecordTooLargeError's definition.
 * - weight.position is the record's order within its section (heading = 0), so inserting a
 *   paragraph changes only the records of that section.
 */
import {
  findInvalidRecord,
  MAX_RECORD_BYTES,
  type Hierarchy,
  type Level,
  type RecordType,
  objectIdFor,
  type SearchRecord,
} from 'docs-search/record';
import {normalizeSpace, readPage, type PageInfo} from './page-reader.ts';
import {NOT_FOUND_TITLE_TRANSLATIONS} from './docusaurus-translations.ts';
import {robotsMetaNoindex} from './robots.ts';
import {refreshUrl} from './refresh.ts';

export {refreshUrl};

export interface ExtractOptions {
  /** Absolute URL of the page, without anchor: the record URL unless `site` says otherwise. */
  url: string;
  /**
   * How the page's canonical URL becomes its record URL: a canonical below `root` (the site's
   * configured URL, e.g. `https://example.com/docs-site/`) is moved onto `base` (the record
   * base). Without it, or for a canonical elsewhere, the record URL is `url`.
   */
  site?: SiteUrls;
  /** weight.pageRank of every record of the page (default 0). */
  pageRank?: number;
  /** Validate every record against the zod schema (default true). */
  validate?: boolean;
  /** No record is larger than this once serialised, in bytes of JSON (default MAX_RECORD_BYTES, 10,000). */
  maxRecordBytes?: number;
}

export interface SiteUrls {
  root: string;
  base: string;
}

export type SkipReason =
  | 'noindex'
  | 'redirect'
  | 'duplicate'
  | 'not-found'
  | 'search-page'
  | 'list-page'
  | 'not-html'
  | 'empty'
  | 'record-too-large'
  | 'too-many-records';

export interface ExtractedPage {
  records: SearchRecord[];
  /** The record URL of the page (without anchor). */
  url: string;
  /** Set when the page was skipped on purpose. */
  skipped?: SkipReason;
  /** What a skip means, when it says more than its reason (a redirect's target: `to URL`). */
  detail?: string;
  /** The page's `<link rel="canonical">` or `og:url`, when present. */
  canonical?: string;
}

/** lvl0 for docs pages outside any sidebar category. */
export const DEFAULT_LVL0 = 'Documentation';
/** lvl0 for the site's home page and other pages outside the docs. */
export const HOME_LVL0 = 'Home';
export const PAGES_LVL0 = 'Pages';
/** The not-found page's title (`theme.NotFound.title`) in every locale Docusaurus ships. */
const NOT_FOUND_TITLES = new Set(NOT_FOUND_TITLE_TRANSLATIONS.map((t) => t.toLowerCase()));
/** Hierarchy texts are capped so that a record always has room for its content. */
const MAX_HEADING_CHARS = 500;

/**
 * The record size rule (issue 36): a record is never larger than `maxRecordBytes` serialised.
 * The fields that grow are held to shares of that limit, so that every record keeps room for
 * its text, and the text is split to fit what is left:
 * - each hierarchy level (lvl0-lvl6): at most 1/20 of the limit as JSON (500 bytes at 10,000),
 *   and MAX_HEADING_CHARS characters; a longer heading is cut and ends with `…`;
 * - an anchor: at most 1/20 of the limit; a longer one is not used in the URL (the record links to
 *   the closest heading above with a usable anchor, or to the page);
 * - the page URL: at most 1/10 of the limit; a longer canonical URL gives way to the URL the
 *   page was routed to; when that one is too long as well, the page is skipped;
 * - language, docusaurus_tag and version: at most MAX_META_CHARS characters each.
 * objectIDs are made from the untrimmed heading texts and anchors: trimming (or a different
 * limit) never renames a record. A page whose records still cannot fit (a limit set very low)
 * is skipped as `record-too-large`.
 */
const HEADING_SHARE = 20;
const ANCHOR_SHARE = 20;
const URL_SHARE = 10;
const MAX_META_CHARS = 100;
/** The least room for text a content record must have; less, and the page is skipped. */
const MIN_CONTENT_BYTES = 100;

/**
 * Records one page may give. A real docs page gives tens to hundreds (site/build's largest, about
 * 200 KB, gives a few hundred); a page past this is broken or hostile (a 7.9 MB page of tiny
 * paragraphs gave a million records, 366 MB of JSON, and took 1.5 GB): it is skipped as
 * `too-many-records`, which keeps a page's memory within a small multiple of its size.
 */
export const MAX_PAGE_RECORDS = 10_000;

class TooManyRecordsError extends Error {}

/** A page whose records cannot be made to fit the record size limit: skipped as `record-too-large`. */
export class RecordTooLargeError extends Error {
  constructor(readonly url: string, readonly maxRecordBytes: number) {
    super(`its records cannot fit in ${maxRecordBytes} bytes`);
  }
}

type SubLevel = Exclude<Level, 'lvl0'>;

/**
 * A copy of a string that does not point into the page's HTML. V8 keeps substrings of 13+
 * characters as slices of their parent, so one attribute value kept in a record would keep the
 * whole page in memory (the benchmark's 5,000 pages peaked far above 300 MB that way).
 */
const interned = new Map<string, string>();
export function ownString(text: string): string {
  if (text.length < 13) return text;
  return Buffer.from(text, 'utf8').toString('utf8');
}

/**
 * Text after normalizeSpace: a fresh string whenever it contains a space (the whitespace
 * replacement built it), possibly a slice of the page when it has none.
 */
function ownText(text: string): string {
  return text.includes(' ') ? text : ownString(text);
}
function intern(text: string): string {
  let value = interned.get(text);
  if (value === undefined) {
    value = ownString(text);
    if (interned.size < 1000) interned.set(value, value);
  }
  return value;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/**
 * lvl0 escaped for both ways it is shown: DocSearch's modal and the early box title a group with
 * it as plain text, while /search puts it in HTML (its breadcrumbs). `<` and `>` are escaped; an
 * `&` only when it could start a character reference (followed by a letter, a digit or `#`): a
 * sidebar category "A & B" is then "A & B" in both, where "A &amp; B" showed as such in the modal.
 */
export function escapeLabel(text: string): string {
  return text.replace(/&(?=[A-Za-z0-9#])|[<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '/';
  }
}

const withoutSlash = (p: string): string => (p.endsWith('/') ? p.slice(0, -1) : p);

function lvl0For(info: PageInfo, url: string): string {
  const classes = info.htmlClass.split(/\s+/);
  if (classes.includes('plugin-docs') || classes.includes('docs-wrapper')) return info.category ?? DEFAULT_LVL0;
  if (info.category) return info.category;
  if (info.navbarActive) return info.navbarActive;
  // The home page is where the navbar's brand points (with or without a trailing slash).
  let home = '/';
  if (info.brandHref !== undefined) {
    try {
      home = new URL(info.brandHref, url).pathname;
    } catch {
      // keep "/"
    }
  }
  return withoutSlash(pathOf(url)) === withoutSlash(home) ? HOME_LVL0 : PAGES_LVL0;
}

/**
 * The record URL: the canonical link when it lies below the site's root (so a folder crawl and
 * a URL crawl of one build agree whatever the host does with trailing slashes), moved onto the
 * record base; otherwise the URL the crawler routed the page to.
 */
export function recordUrlFor(canonical: string | undefined, fallback: string, site: SiteUrls | undefined): string {
  if (!canonical || !site) return fallback;
  let url: URL;
  try {
    url = new URL(canonical, fallback);
  } catch {
    return fallback;
  }
  url.hash = '';
  url.search = '';
  url.username = '';
  url.password = '';
  const href = url.toString();
  const root = site.root;
  if (href.startsWith(root)) return new URL(href.slice(root.length), site.base).toString();
  // The root itself, written without its trailing slash (trailingSlash: false): so is the record URL.
  if (`${href}/` === root) return site.base.endsWith('/') && site.base.length > new URL(site.base).origin.length + 1 ? site.base.slice(0, -1) : site.base;
  return fallback;
}

/** Control characters a record must not carry: C0 (the parser turned tab and newlines into spaces already), DEL, C1. */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
function cleanMeta(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return CONTROL.test(value) ? value.replace(CONTROLS, '').trim() : value.trim();
}

/** Not a page: empty, or binary (a NUL in its first kilobyte, as git and grep decide). */
function notHtml(html: string): SkipReason | undefined {
  if (html.trim() === '') return 'empty';
  if (html.slice(0, 1024).includes('\u0000')) return 'not-html';
  return undefined;
}

function pageTitle(info: PageInfo): string {
  if (info.firstH1) return info.firstH1;
  const title = info.title ?? '';
  const bar = title.lastIndexOf(' | ');
  return normalizeSpace(bar > 0 ? title.slice(0, bar) : title);
}

function byteSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** Escaped size of one piece of text inside a JSON string (no quotes). */
function escapedSize(text: string): number {
  return byteSize(escapeHtml(text)) - 2;
}

/**
 * Raw text cut so that it holds at most MAX_HEADING_CHARS characters and, HTML-escaped, at most
 * `maxBytes` bytes inside a JSON string; a cut text ends with `…`.
 */
export function fitHeading(text: string, maxBytes: number): string {
  if (text.length <= MAX_HEADING_CHARS && (text.length * 6 <= maxBytes || escapedSize(text) <= maxBytes)) return text;
  const room = maxBytes - 3; // the `…`
  let size = 0;
  let end = 0;
  for (const char of text) {
    const charSize = escapedSize(char);
    if (size + charSize > room || end + char.length > MAX_HEADING_CHARS - 1) break;
    size += charSize;
    end += char.length;
  }
  return `${text.slice(0, end)}…`;
}

/** A meta value (language, tag, version) held to MAX_META_CHARS characters. */
function capMeta(value: string): string {
  return value.length > MAX_META_CHARS ? [...value].slice(0, MAX_META_CHARS).join('') : value;
}

/**
 * Bytes that `text[from, to)` takes once HTML-escaped, inside a JSON string (UTF-8): what
 * `escapedSize` measures, counted in place instead of building three copies of the text (a 7.9 MB
 * paragraph made hundreds of MB of garbage that way). Stops counting once past `stop`.
 */
function escapedSizeOf(text: string, from = 0, to = text.length, stop = Number.POSITIVE_INFINITY): number {
  let size = 0;
  for (let i = from; i < to && size <= stop; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) size += c === 0x26 ? 5 : c === 0x3c || c === 0x3e ? 4 : c === 0x22 || c === 0x5c ? 2 : c < 0x20 ? (JSON_SHORT_ESCAPES.has(c) ? 2 : 6) : 1;
    else if (c < 0x800) size += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < to ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        size += 4;
        i += 1;
      } else size += 6; // a lone surrogate: JSON.stringify writes \uXXXX
    } else if (c >= 0xdc00 && c <= 0xdfff) size += 6;
    else size += 3;
  }
  return size;
}

/** Control characters JSON.stringify writes as a two-character escape (\b \t \n \f \r). */
const JSON_SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/**
 * Splits raw text into pieces whose escaped JSON size fits the budget, at spaces when possible
 * (a word longer than the budget is split between characters). The text is walked in place, a
 * word at a time: no array of its words, no escaped copies.
 */
export function splitText(text: string, budget: number): string[] {
  // A UTF-16 unit takes at most 6 bytes once escaped (`&amp;` is 5, a JSON `\u00XX` 6): short text fits.
  if (text.length * 6 <= budget || escapedSizeOf(text, 0, text.length, budget) <= budget) return [text];
  const pieces: string[] = [];
  /** The current piece is text[start, end), `size` bytes escaped; start < 0 when it is empty. */
  let start = -1;
  let end = 0;
  let size = 0;
  const pushCurrent = (): void => {
    if (start >= 0) pieces.push(text.slice(start, end));
    start = -1;
    size = 0;
  };
  for (let i = 0; i <= text.length; ) {
    let j = text.indexOf(' ', i);
    if (j === -1) j = text.length;
    const wordSize = escapedSizeOf(text, i, j, budget);
    if (wordSize > budget) {
      pushCurrent();
      // Between characters (a surrogate pair stays whole).
      let pieceStart = i;
      let pieceSize = 0;
      for (let k = i; k < j; ) {
        const code = text.charCodeAt(k);
        const pair = code >= 0xd800 && code <= 0xdbff && k + 1 < j && text.charCodeAt(k + 1) >= 0xdc00 && text.charCodeAt(k + 1) <= 0xdfff;
        const width = pair ? 2 : 1;
        const charSize = escapedSizeOf(text, k, k + width);
        if (pieceSize + charSize > budget) {
          pieces.push(text.slice(pieceStart, k));
          pieceStart = k;
          pieceSize = 0;
        }
        pieceSize += charSize;
        k += width;
      }
      if (pieceStart < j) {
        start = pieceStart;
        end = j;
        size = pieceSize;
      }
    } else if (start < 0) {
      start = i;
      end = j;
      size = wordSize;
    } else if (size + wordSize + 1 > budget) {
      pushCurrent();
      start = i;
      end = j;
      size = wordSize;
    } else {
      size += wordSize + 1;
      end = j;
    }
    i = j + 1;
  }
  pushCurrent();
  return pieces;
}

class RecordBuilder {
  readonly records: SearchRecord[] = [];
  private readonly hierarchy: Hierarchy;
  /** The anchors records link to (null where a heading has none, or one too long for a record). */
  private readonly anchors: (string | null)[] = [null, null, null, null, null, null, null];
  /** Each level's identity for objectIDs: its anchor, else `~` and its text, untrimmed. */
  private readonly identities: (string | null)[] = [null, null, null, null, null, null, null];
  private readonly headingBytes: number;
  private readonly anchorBytes: number;
  private sectionPath: string[] = [];
  private position = 0;
  private occurrences = new Map<string, number>();
  private readonly meta: Pick<SearchRecord, 'language' | 'docusaurus_tag' | 'version'>;
  private sectionHierarchy!: Hierarchy;
  private sectionAnchor: string | null = null;
  private sectionUrl = '';
  private budget: number | undefined;

  constructor(
    private readonly url: string,
    private readonly pageRank: number,
    lvl0: string,
    title: string,
    meta: Pick<SearchRecord, 'language' | 'docusaurus_tag' | 'version'>,
    private readonly maxRecordBytes: number,
  ) {
    this.meta = meta;
    this.headingBytes = Math.floor(maxRecordBytes / HEADING_SHARE);
    this.anchorBytes = Math.floor(maxRecordBytes / ANCHOR_SHARE);
    this.hierarchy = {lvl0: intern(escapeLabel(fitHeading(lvl0, this.headingBytes))), lvl1: null, lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null};
    this.heading(1, title, null);
  }

  /** Starts a new section at heading level 1–6. */
  heading(level: number, rawText: string, anchor: string | null): void {
    const fitted = fitHeading(rawText, this.headingBytes);
    const text = ownText(escapeHtml(fitted));
    // The objectID's text: the whole heading (the same string when it was not cut).
    const identityText = fitted === rawText ? text : escapeHtml(rawText);
    for (let n = level; n <= 6; n++) {
      this.hierarchy[`lvl${n}` as SubLevel] = null;
      this.anchors[n] = null;
      this.identities[n] = null;
    }
    this.hierarchy[`lvl${level}` as SubLevel] = text;
    // An anchor too long for a record (a URL holds it twice) is left out of the record's URL.
    this.anchors[level] = anchor !== null && byteSize(anchor) - 2 <= this.anchorBytes ? anchor : null;
    this.identities[level] = anchor ?? `~${identityText}`;
    this.sectionPath = [];
    for (let n = 2; n <= level; n++) {
      const identity = this.identities[n];
      if (identity !== null && identity !== undefined) this.sectionPath.push(identity);
    }
    this.position = 0;
    this.occurrences = new Map();
    // Records of one section share their hierarchy object and URL (a 5,000-page site has
    // hundreds of thousands of records: per-record copies dominated the memory use).
    this.sectionHierarchy = {...this.hierarchy};
    this.sectionAnchor = this.currentAnchor();
    this.sectionUrl = this.sectionAnchor ? `${this.url}#${this.sectionAnchor}` : this.url;
    this.budget = undefined;
    // The heading record holds no more than what every record of its section holds.
    if (byteSize(this.make(`lvl${level}` as RecordType, 'x'.repeat(24), null)) + 16 > this.maxRecordBytes) {
      throw new RecordTooLargeError(this.url, this.maxRecordBytes);
    }
    this.push(`lvl${level}` as RecordType, text, null, identityText);
  }

  content(rawText: string): void {
    const text = normalizeSpace(rawText);
    if (!text) return;
    // Room left for the text once the rest of the record (24-char ID, any position) is counted.
    this.budget ??= this.maxRecordBytes - byteSize(this.make('content', 'x'.repeat(24), '')) - 16;
    // Too little room would split the text into a record per few characters: the page does not fit.
    if (this.budget < MIN_CONTENT_BYTES) throw new RecordTooLargeError(this.url, this.maxRecordBytes);
    for (const piece of splitText(text, this.budget)) {
      const escaped = ownText(escapeHtml(piece));
      this.push('content', escaped, escaped);
    }
  }

  private currentAnchor(): string | null {
    for (let n = 6; n >= 2; n--) if (this.anchors[n]) return this.anchors[n] ?? null;
    return null;
  }

  private make(type: RecordType, objectID: string, content: string | null): SearchRecord {
    const level = type === 'content' ? 0 : 100 - 10 * Number(type.slice(3));
    const record: SearchRecord = {
      objectID,
      url: this.sectionUrl,
      url_without_anchor: this.url,
      anchor: this.sectionAnchor,
      type,
      hierarchy: this.sectionHierarchy,
      content,
      weight: {pageRank: this.pageRank, level, position: this.position},
      language: this.meta.language,
      docusaurus_tag: this.meta.docusaurus_tag,
    };
    if (this.meta.version !== undefined) record.version = this.meta.version;
    return record;
  }

  private push(type: RecordType, shown: string, content: string | null, text = shown): void {
    const key = `${type}\u0000${text}`;
    const occurrence = this.occurrences.get(key) ?? 0;
    this.occurrences.set(key, occurrence + 1);
    // A page of a million tiny paragraphs would take hundreds of times its size in records.
    if (this.records.length >= MAX_PAGE_RECORDS) throw new TooManyRecordsError();
    const objectID = objectIdFor({page: this.url, sectionPath: this.sectionPath, type, text, occurrence});
    this.records.push(this.make(type, objectID, content));
    this.position += 1;
  }
}

/** Thrown inside a string pass that met a `<` which is not a tag: the page goes to the parser whole. */
const NOT_A_TAG = Symbol('not a tag');

/**
 * Cheap string passes before parsing (the stage's main cost). Scripts and inline SVG icons are a
 * quarter of a Docusaurus page and never indexed, so they are cut out first.
 * Docusaurus also minifies HTML and drops optional end tags; htmlparser2 does not let `<tbody>`
 * close an open `<thead>` (it nests the body inside the last header cell), so close it here.
 *
 * The passes are plain string matches, so a `<svg`, `<script` or `<pre` that is no tag (HTML
 * minifiers leave `<` raw in attribute values: the hash link's `aria-label="Direct link to The
 * <svg> element"`; or in `<title>` text, or a comment) would cut from there to the next real end
 * tag, and the page would lose everything in between. Such a cut always swallows the real
 * opening tag of that end tag, so a match holding a second opening tag stops the passes, and the
 * parser (which knows attributes from tags, and skips svg and script itself) reads the page
 * whole: slower, same records, nothing lost.
 */
function prepareHtml(html: string): string {
  try {
    return stripChrome(html);
  } catch (error) {
    if (error !== NOT_A_TAG) throw error;
    return html.includes('<tbody') ? html.replace(/<tbody\b/g, '</thead><tbody') : html;
  }
}

function cutElements(html: string, pattern: RegExp, open: string): string {
  return html.replace(pattern, (match: string) => {
    if (match.indexOf(open, 1) !== -1) throw NOT_A_TAG;
    return '';
  });
}

function stripChrome(html: string): string {
  let out = html;
  if (out.includes('<script')) out = cutElements(out, /<script\b[\s\S]*?<\/script>/g, '<script');
  if (out.includes('<svg')) out = cutElements(out, /<svg\b[\s\S]*?<\/svg>/g, '<svg');
  if (out.includes('<tbody')) out = out.replace(/<tbody\b/g, '</thead><tbody');
  // Prism turns a code block into a tag per token (half of an API reference page): keep only
  // its text, one line per line. Entities stay encoded, so the parser still decodes them once.
  if (out.includes('<pre')) {
    out = out.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre>/g, (_match, inner: string) => {
      if (inner.includes('<pre')) throw NOT_A_TAG;
      return `<pre>${inner.replace(/<br\b[^>]*>|<\/div>/g, '\n').replace(/<[^>]*>/g, '')}</pre>`;
    });
  }
  return out;
}

/**
 * Two paths of one page, as a static host serves them: a trailing slash, `index.html`, `.html`,
 * percent-encoding, query and fragment aside (`/docs/a`, `/docs/a/`, `/docs/a.html`).
 */
function samePath(a: URL, b: URL): boolean {
  const key = (url: URL): string => {
    let pathname = url.pathname;
    try {
      pathname = decodeURIComponent(pathname);
    } catch {
      // malformed escapes: compare as written
    }
    return pathname.replace(/\/index\.html?$/i, '/').replace(/\.html?$/i, '').replace(/\/+$/, '');
  };
  return key(a) === key(b);
}

/**
 * Where a redirect page sends its reader, or undefined when the page is no redirect: a meta
 * refresh naming another page (anywhere: the reader never reads this one). Shown on the record
 * base when it lies in the site.
 */
function refreshTarget(info: PageInfo, pageUrl: string, site: SiteUrls | undefined): string | undefined {
  const refresh = info.refresh === undefined ? undefined : refreshUrl(info.refresh);
  if (refresh === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(refresh, pageUrl);
  } catch {
    return undefined; // not a URL: the refresh goes nowhere
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;
  target.hash = '';
  const href = target.toString();
  // On the record base, as the page's own URL is (a refresh may name the site's configured host).
  const shown = new URL(recordUrlFor(href, href, site));
  const page = new URL(pageUrl);
  return shown.origin === page.origin && samePath(shown, page) ? undefined : shown.toString();
}

/**
 * The listing pages of Docusaurus's blog and docs plugins, by the search tag their theme gives
 * them (`<SearchMetadata tag=…>`, the `docsearch:docusaurus_tag` meta) and by their page class
 * (theme-common's ThemeClassNames, which Docusaurus keeps stable for users' CSS): the blog's post
 * lists (and their pages 2, 3…), its tags, a tag's posts, its authors, an author's posts, and the
 * docs' tags and a tag's docs. Each repeats what other pages hold (a post's title and excerpt, a
 * doc's title and description): indexed, its records would stand beside the post's own for the
 * same words. DocSearch's contextual search in Docusaurus never shows them either (it filters on
 * `docusaurus_tag` `default` and the docs versions' tags). The blog's archive keeps
 * the tag `default` (it lists titles only) and is indexed.
 */
const LIST_PAGES: readonly {tag: string; pageClass: string; kind: string}[] = [
  {tag: 'blog_posts_list', pageClass: 'blog-list-page', kind: 'blog post list'},
  {tag: 'blog_tags_list', pageClass: 'blog-tags-list-page', kind: 'blog tags'},
  {tag: 'blog_tags_posts', pageClass: 'blog-tags-post-list-page', kind: "a blog tag's posts"},
  {tag: 'blog_authors_list', pageClass: 'blog-authors-list-page', kind: 'blog authors'},
  {tag: 'blog_authors_posts', pageClass: 'blog-authors-posts-page', kind: "a blog author's posts"},
  {tag: 'doc_tags_list', pageClass: 'docs-tags-list-page', kind: 'doc tags'},
  {tag: 'doc_tag_doc_list', pageClass: 'docs-tags-doc-list-page', kind: "a doc tag's docs"},
];

/** What kind of listing page this is (LIST_PAGES), or undefined for any other page. */
function listPageKind(info: PageInfo): string | undefined {
  const tag = cleanMeta(info.metas.get('docsearch:docusaurus_tag'));
  const classes = info.htmlClass.split(/\s+/);
  return LIST_PAGES.find((page) => page.tag === tag || classes.includes(page.pageClass))?.kind;
}

function isNotFoundPage(info: PageInfo, title: string): boolean {
  // A doc or a blog post may well be titled "Page Not Found" (an error reference): not this page.
  // (The not-found page of a site whose docs are at "/" is drawn in the docs layout, but it is no doc.)
  if (/\b(docs-doc-page|blog-post-page)\b/.test(info.htmlClass)) return false;
  if (NOT_FOUND_TITLES.has(title.toLowerCase())) return true;
  const full = (info.title ?? '').toLowerCase();
  const bar = full.lastIndexOf(' | ');
  return NOT_FOUND_TITLES.has(bar > 0 ? full.slice(0, bar) : full);
}

export function extractPageDetailed(html: string, options: ExtractOptions): ExtractedPage {
  const fallbackUrl = options.url.replace(/#.*$/, '');
  const junk = notHtml(html);
  if (junk) return {records: [], url: fallbackUrl, skipped: junk};
  const info = readPage(prepareHtml(html));
  const rawCanonical = cleanMeta(info.canonical ?? info.ogUrl);
  const canonical = rawCanonical ? ownString(rawCanonical) : undefined;
  const maxRecordBytes = options.maxRecordBytes ?? MAX_RECORD_BYTES;
  // A URL is in every record twice: one too long for the rule gives way to the routed URL.
  const urlBytes = Math.floor(maxRecordBytes / URL_SHARE);
  const fits = (candidate: string): boolean => byteSize(candidate) - 2 <= urlBytes;
  const fromCanonical = recordUrlFor(canonical, fallbackUrl, options.site);
  const url = ownString(fits(fromCanonical) ? fromCanonical : fallbackUrl);
  const result = (skipped?: SkipReason): ExtractedPage => ({
    records: [],
    url,
    ...(skipped ? {skipped} : {}),
    ...(canonical ? {canonical} : {}),
  });

  if (robotsMetaNoindex(info.robots)) return result('noindex');
  // A redirect page (what @docusaurus/plugin-client-redirects writes for each old path) is not
  // a page: it gives no records, and its canonical link must not make it pass for its target.
  const redirect = refreshTarget(info, fallbackUrl, options.site);
  if (redirect !== undefined) return {records: [], url: fallbackUrl, skipped: 'redirect', detail: `to ${redirect}`};
  // A page whose canonical link names another page of the site is that page's duplicate: it
  // gives no records whatever the order pages are read in, so it never takes its target's place.
  if (fromCanonical !== fallbackUrl && fits(fromCanonical) && !samePath(new URL(fromCanonical), new URL(fallbackUrl))) {
    return {records: [], url: fallbackUrl, skipped: 'duplicate', detail: `same page as ${fromCanonical}`};
  }
  const title = pageTitle(info);
  if (isNotFoundPage(info, title)) return result('not-found');
  if (info.htmlClass.split(/\s+/).includes('search-page-wrapper')) return result('search-page');
  const list = listPageKind(info);
  if (list !== undefined) return {...result('list-page'), detail: list};
  if (!fits(url)) return result('record-too-large');

  const language = intern(capMeta(cleanMeta(info.metas.get('docsearch:language')) || cleanMeta(info.htmlLang) || 'en'));
  const tag = intern(capMeta(cleanMeta(info.metas.get('docsearch:docusaurus_tag')) || 'default'));
  const rawVersion = cleanMeta(info.metas.get('docsearch:version'));
  const version = rawVersion ? intern(capMeta(rawVersion)) : undefined;
  let builder: RecordBuilder;
  try {
    builder = new RecordBuilder(
      url,
      options.pageRank ?? 0,
      lvl0For(info, url),
      title || url,
      {language, docusaurus_tag: tag, ...(version ? {version} : {})},
      maxRecordBytes,
    );
    for (const op of info.ops) {
      if (typeof op === 'string') builder.content(op);
      else builder.heading(op.level, op.text, op.id ? ownString(op.id) : null);
    }
  } catch (error) {
    if (error instanceof RecordTooLargeError) return result('record-too-large');
    if (error instanceof TooManyRecordsError) return result('too-many-records');
    throw error;
  }
  const records = builder.records;
  if (options.validate !== false) {
    const invalid = findInvalidRecord(records);
    if (invalid) throw new Error(`invalid record for ${url}: ${invalid.message}`);
  }
  return {records, url, ...(canonical ? {canonical} : {})};
}

/** One page's HTML → its records (empty for skipped pages). `url` is the page URL without anchor. */
export function extractPage(html: string, options: ExtractOptions): SearchRecord[] {
  return extractPageDetailed(html, options).records;
}
