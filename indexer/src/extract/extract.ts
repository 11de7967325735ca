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
 *   own), and files that are not HTML (empty, or binary: a NUL byte in the first kilobyte).
 *   A page's path never decides (a doc at `/docs/errors/404` is indexed).
 * - The record URL is what the page says it is: its `<link rel="canonical">` (else `og:url`)
 *   when it lies below the site's root, moved onto the record base (`--base-url`); else the
 *   URL the crawler routed the page to. So a folder crawl and a URL crawl agree.
 * - Control characters (C0 but tab/newline, DEL, C1) never reach a record.
 * - Text is HTML-escaped exactly once, here; no record exceeds MAX_RECORD_BYTES.
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
}

export interface SiteUrls {
  root: string;
  base: string;
}

export type SkipReason = 'noindex' | 'not-found' | 'search-page' | 'not-html' | 'empty';

export interface ExtractedPage {
  records: SearchRecord[];
  /** The record URL of the page (without anchor). */
  url: string;
  /** Set when the page was skipped on purpose. */
  skipped?: SkipReason;
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

function capHeading(text: string): string {
  return text.length > MAX_HEADING_CHARS ? `${text.slice(0, MAX_HEADING_CHARS - 1)}…` : text;
}

function byteSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** Escaped size of one piece of text inside a JSON string (no quotes). */
function escapedSize(text: string): number {
  return byteSize(escapeHtml(text)) - 2;
}

/** Splits raw text into pieces whose escaped JSON size fits the budget, at spaces when possible. */
export function splitText(text: string, budget: number): string[] {
  // A UTF-16 unit takes at most 6 bytes once escaped (`&amp;` is 5, a JSON `\u00XX` 6): short text fits.
  if (text.length * 6 <= budget || escapedSize(text) <= budget) return [text];
  const pieces: string[] = [];
  let current: string[] = [];
  let size = 0;
  const pushCurrent = (): void => {
    if (current.length) pieces.push(current.join(' '));
    current = [];
    size = 0;
  };
  for (const word of text.split(' ')) {
    const wordSize = escapedSize(word);
    if (wordSize > budget) {
      pushCurrent();
      let piece = '';
      let pieceSize = 0;
      for (const char of word) {
        const charSize = escapedSize(char);
        if (pieceSize + charSize > budget) {
          pieces.push(piece);
          piece = '';
          pieceSize = 0;
        }
        piece += char;
        pieceSize += charSize;
      }
      if (piece) {
        current = [piece];
        size = pieceSize;
      }
      continue;
    }
    const extra = current.length ? wordSize + 1 : wordSize;
    if (size + extra > budget) pushCurrent();
    size += current.length ? wordSize + 1 : wordSize;
    current.push(word);
  }
  pushCurrent();
  return pieces;
}

class RecordBuilder {
  readonly records: SearchRecord[] = [];
  private readonly hierarchy: Hierarchy;
  private readonly anchors: (string | null)[] = [null, null, null, null, null, null, null];
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
  ) {
    this.meta = meta;
    this.hierarchy = {lvl0: intern(escapeHtml(capHeading(lvl0))), lvl1: null, lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null};
    this.heading(1, title, null);
  }

  /** Starts a new section at heading level 1–6. */
  heading(level: number, rawText: string, anchor: string | null): void {
    const text = ownText(escapeHtml(capHeading(rawText)));
    for (let n = level; n <= 6; n++) {
      this.hierarchy[`lvl${n}` as SubLevel] = null;
      this.anchors[n] = null;
    }
    this.hierarchy[`lvl${level}` as SubLevel] = text;
    this.anchors[level] = anchor;
    this.sectionPath = [];
    for (let n = 2; n <= level; n++) {
      if (this.hierarchy[`lvl${n}` as SubLevel] !== null) this.sectionPath.push(this.anchors[n] ?? `~${this.hierarchy[`lvl${n}` as SubLevel]}`);
    }
    this.position = 0;
    this.occurrences = new Map();
    // Records of one section share their hierarchy object and URL (a 5,000-page site has
    // hundreds of thousands of records: per-record copies dominated the memory use).
    this.sectionHierarchy = {...this.hierarchy};
    this.sectionAnchor = this.currentAnchor();
    this.sectionUrl = this.sectionAnchor ? `${this.url}#${this.sectionAnchor}` : this.url;
    this.budget = undefined;
    this.push(`lvl${level}` as RecordType, text, null);
  }

  content(rawText: string): void {
    const text = normalizeSpace(rawText);
    if (!text) return;
    // Room left for the text once the rest of the record (24-char ID, any position) is counted.
    this.budget ??= MAX_RECORD_BYTES - byteSize(this.make('content', 'x'.repeat(24), '')) - 16;
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

  private push(type: RecordType, text: string, content: string | null): void {
    const key = `${type}\u0000${text}`;
    const occurrence = this.occurrences.get(key) ?? 0;
    this.occurrences.set(key, occurrence + 1);
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
  const url = ownString(recordUrlFor(canonical, fallbackUrl, options.site));
  const result = (skipped?: SkipReason): ExtractedPage => ({
    records: [],
    url,
    ...(skipped ? {skipped} : {}),
    ...(canonical ? {canonical} : {}),
  });

  const robots = info.metas.get('robots')?.toLowerCase() ?? '';
  if (/\bnoindex\b/.test(robots)) return result('noindex');
  const title = pageTitle(info);
  if (isNotFoundPage(info, title)) return result('not-found');
  if (info.htmlClass.split(/\s+/).includes('search-page-wrapper')) return result('search-page');

  const language = intern(cleanMeta(info.metas.get('docsearch:language')) || cleanMeta(info.htmlLang) || 'en');
  const tag = intern(cleanMeta(info.metas.get('docsearch:docusaurus_tag')) || 'default');
  const rawVersion = cleanMeta(info.metas.get('docsearch:version'));
  const version = rawVersion ? intern(rawVersion) : undefined;
  const builder = new RecordBuilder(url, options.pageRank ?? 0, lvl0For(info, url), title || url, {
    language,
    docusaurus_tag: tag,
    ...(version ? {version} : {}),
  });
  for (const op of info.ops) {
    if (typeof op === 'string') builder.content(op);
    else builder.heading(op.level, op.text, op.id ? ownString(op.id) : null);
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
