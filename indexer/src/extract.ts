/**
 * Extract stage: one page's HTML → DocSearch v3 records.
 *
 * The HTML is parsed once with cheerio's htmlparser2 build (`cheerio/slim`, no parse5) and then
 * walked by hand in document order, which is several times faster than running CSS selectors.
 *
 * Rules (issue 7):
 * - lvl0 is the page's top-level sidebar category ("API v1", "API v2"); docs pages outside a
 *   category get "Documentation"; pages outside the docs (the home page) get "Home" at the site
 *   root and "Pages" elsewhere.
 * - lvl1 is the page title (its h1, else `<title>` without the site-name suffix); lvl2–lvl6 are
 *   h2–h6 with their anchors; the hash-link ("Direct link to …") is not part of the text.
 * - content is every run of text in the article: paragraphs, list items, admonitions, details,
 *   one record per table row (cells joined by " · ", header rows skipped) and code blocks
 *   (payload samples name fields and error codes people search for).
 * - Navbar, sidebar, footer, table of contents, breadcrumbs, pagination, edit links, tab labels,
 *   copy buttons and category cards (they repeat other pages) are ignored.
 * - Skipped pages: `<meta name="robots" content="noindex">`, the not-found page ("Page Not
 *   Found"), and the search page (it has no content of its own).
 * - Text is HTML-escaped exactly once, here; no record exceeds MAX_RECORD_BYTES.
 * - weight.position is the record's order within its section (heading = 0), so inserting a
 *   paragraph changes only the records of that section.
 */
import {load} from 'cheerio/slim';
import {
  findInvalidRecord,
  MAX_RECORD_BYTES,
  type Hierarchy,
  type Level,
  type RecordType,
  type SearchRecord,
} from './records.ts';
import {objectIdFor} from './object-id.ts';

export interface ExtractOptions {
  /** Absolute URL of the page, without anchor. */
  url: string;
  /** weight.pageRank of every record of the page (default 0). */
  pageRank?: number;
  /** Validate every record against the zod schema (default true). */
  validate?: boolean;
}

export type SkipReason = 'noindex' | 'not-found' | 'search-page';

export interface ExtractedPage {
  records: SearchRecord[];
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
const NOT_FOUND_TITLE = 'Page Not Found';
/** Hierarchy texts are capped so that a record always has room for its content. */
const MAX_HEADING_CHARS = 500;
const ROW_SEPARATOR = ' · ';

/** Minimal view of htmlparser2/domhandler nodes (the only fields we read). */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
}

const SKIP_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'nav', 'aside', 'footer', 'button', 'iframe',
  'object', 'canvas', 'img', 'picture', 'video', 'audio', 'input', 'select', 'textarea', 'head',
]);
const SKIP_CLASSES = new Set([
  'hash-link', 'theme-doc-toc-mobile', 'theme-doc-toc-desktop', 'table-of-contents',
  'theme-doc-breadcrumbs', 'breadcrumbs', 'pagination-nav', 'theme-doc-footer',
  'theme-edit-this-page', 'theme-last-updated', 'theme-doc-version-badge',
  'theme-doc-version-banner', 'theme-back-to-top-button', 'theme-doc-card-container',
  'theme-announcement-bar', 'DocSearch', 'docusaurus-mermaid-container', 'tabs',
]);
/** Class prefixes of Docusaurus CSS modules (the suffix is a build hash). */
const SKIP_CLASS_PREFIXES = ['buttonGroup_', 'copyButton'];
const INLINE_TAGS = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'ins', 'kbd',
  'label', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var',
  'wbr', 'font', 'tt',
]);
type SubLevel = Exclude<Level, 'lvl0'>;
const HEADINGS: Record<string, number> = {h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6};
const DEFAULT_ADMONITION_TITLES = new Set(['note', 'tip', 'info', 'warning', 'danger', 'caution', 'important']);

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

function normalizeSpace(text: string): string {
  return text.replace(/[\s\u200b]+/g, ' ').trim();
}

function classTokens(node: DomNode): string[] {
  const value = node.attribs?.class;
  return value ? value.split(/\s+/) : [];
}

function isSkipped(node: DomNode): boolean {
  const name = node.name ?? '';
  if (SKIP_TAGS.has(name)) return true;
  const attribs = node.attribs;
  if (!attribs) return false;
  if (attribs['aria-hidden'] === 'true' || attribs.role === 'tablist') return true;
  if (attribs.class) {
    for (const token of classTokens(node)) {
      if (SKIP_CLASSES.has(token)) return true;
      for (const prefix of SKIP_CLASS_PREFIXES) if (token.startsWith(prefix)) return true;
    }
  }
  return false;
}

function isElement(node: DomNode): boolean {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

/** Text of a subtree, ignoring skipped elements; line breaks and code lines become spaces. */
function textOf(node: DomNode, out: string[] = []): string[] {
  for (const child of node.children ?? []) {
    if (child.type === 'text') out.push(child.data ?? '');
    else if (isElement(child) && !isSkipped(child)) {
      if (child.name === 'br') {
        out.push('\n');
        continue;
      }
      textOf(child, out);
      // Prism renders each code line as a span; keep lines apart.
      if (child.attribs?.class?.includes('token-line')) out.push('\n');
      else if (!INLINE_TAGS.has(child.name ?? '')) out.push(' ');
    }
  }
  return out;
}

function cleanText(node: DomNode): string {
  return normalizeSpace(textOf(node).join(''));
}

interface PageInfo {
  htmlClass: string;
  htmlLang?: string;
  title?: string;
  firstH1?: string;
  canonical?: string;
  ogUrl?: string;
  metas: Map<string, string>;
  category?: string;
  contentRoot?: DomNode;
  main?: DomNode;
  body?: DomNode;
}

/** One pass over the whole document for what lives outside the article. */
function scanPage(root: DomNode): PageInfo {
  const info: PageInfo = {htmlClass: '', metas: new Map()};
  const visit = (node: DomNode, inChrome: boolean, inSidebar: boolean): void => {
    for (const child of node.children ?? []) {
      if (!isElement(child)) continue;
      const name = child.name;
      const attribs = child.attribs ?? {};
      switch (name) {
        case 'html':
          info.htmlClass = attribs.class ?? '';
          info.htmlLang = attribs.lang;
          break;
        case 'title':
          if (info.title === undefined) info.title = normalizeSpace(textOf(child).join(''));
          continue;
        case 'meta': {
          const key = attribs.name ?? attribs.property;
          if (key && attribs.content !== undefined && !info.metas.has(key)) info.metas.set(key, attribs.content);
          if (key === 'og:url') info.ogUrl = attribs.content;
          continue;
        }
        case 'link':
          if (attribs.rel === 'canonical' && attribs.href) info.canonical = attribs.href;
          continue;
        case 'body':
          info.body = child;
          break;
        case 'main':
          info.main ??= child;
          break;
        case 'h1':
          if (!inChrome && info.firstH1 === undefined) info.firstH1 = cleanText(child);
          continue;
        case 'script':
        case 'style':
        case 'svg':
          continue;
        default:
          break;
      }
      if (attribs.id === '__docusaurus_skipToContent_fallback') info.contentRoot ??= child;
      const sidebar = inSidebar || name === 'aside';
      if (sidebar && info.category === undefined && attribs.class) {
        const tokens = classTokens(child);
        // The outermost active category of the docs sidebar (its label link).
        if (tokens.includes('menu__link--sublist') && tokens.includes('menu__link--active')) {
          info.category = cleanText(child) || undefined;
        }
      }
      visit(child, inChrome || name === 'nav' || name === 'aside' || name === 'footer', sidebar);
    }
  };
  visit(root, false, false);
  return info;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '/';
  }
}

function lvl0For(info: PageInfo, url: string): string {
  const classes = info.htmlClass.split(/\s+/);
  if (classes.includes('plugin-docs') || classes.includes('docs-wrapper')) return info.category ?? DEFAULT_LVL0;
  if (info.category) return info.category;
  // Outside the docs: an index page ("/" or "/base/") is the home page.
  return pathOf(url).endsWith('/') ? HOME_LVL0 : PAGES_LVL0;
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

function isDefaultAdmonitionHeading(node: DomNode): boolean {
  return classTokens(node).some((t) => t.startsWith('admonitionHeading_')) &&
    DEFAULT_ADMONITION_TITLES.has(cleanText(node).toLowerCase());
}

/** Walks the article in document order, turning headings and text runs into records. */
function walkContent(root: DomNode, builder: RecordBuilder, titleFromH1: boolean): void {
  let buffer: string[] = [];
  let seenH1 = !titleFromH1;
  const flush = (): void => {
    if (buffer.length) builder.content(buffer.join(''));
    buffer = [];
  };
  const table = (node: DomNode, inHead: boolean): void => {
    for (const child of node.children ?? []) {
      if (!isElement(child) || isSkipped(child)) continue;
      if (child.name === 'tr') {
        const cells = (child.children ?? []).filter((c) => c.name === 'td' || c.name === 'th');
        const headerRow = inHead || (cells.length > 0 && cells.every((c) => c.name === 'th'));
        if (headerRow) continue;
        builder.content(cells.map(cleanText).filter(Boolean).join(ROW_SEPARATOR));
      } else if (child.name === 'caption') {
        builder.content(cleanText(child));
      } else {
        table(child, inHead || child.name === 'thead');
      }
    }
  };
  const visit = (node: DomNode): void => {
    const children = node.children ?? [];
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as DomNode;
      const next = children[i + 1];
      if (child.type === 'text') {
        buffer.push(child.data ?? '');
        continue;
      }
      if (!isElement(child) || isSkipped(child)) continue;
      const name = child.name ?? '';
      const level = HEADINGS[name];
      if (level !== undefined) {
        flush();
        const text = cleanText(child);
        if (level === 1 && !seenH1) {
          seenH1 = true; // the title record exists already
        } else if (text) {
          const id = child.attribs?.id;
          builder.heading(Math.max(level, 2), text, id ? ownString(id) : null);
        }
      } else if (name === 'br') {
        buffer.push(' ');
      } else if (name === 'table') {
        flush();
        table(child, false);
      } else if (name === 'pre') {
        flush();
        builder.content(cleanText(child));
      } else if (INLINE_TAGS.has(name)) {
        visit(child);
        // Cards and buttons put inline elements side by side, styled as blocks: keep words apart.
        if (next && isElement(next)) buffer.push(' ');
      } else if (isDefaultAdmonitionHeading(child)) {
        continue;
      } else {
        flush();
        visit(child);
        flush();
      }
    }
  };
  visit(root);
  flush();
}

/**
 * Cheap string passes before parsing (the stage's main cost). Scripts and inline SVG icons are a
 * quarter of a Docusaurus page and never indexed, so they are cut out first.
 * Docusaurus also minifies HTML and drops optional end tags; htmlparser2 does not let `<tbody>`
 * close an open `<thead>` (it nests the body inside the last header cell), so close it here.
 */
function prepareHtml(html: string): string {
  let out = html;
  if (out.includes('<script')) out = out.replace(/<script\b[\s\S]*?<\/script>/g, '');
  if (out.includes('<svg')) out = out.replace(/<svg\b[\s\S]*?<\/svg>/g, '');
  if (out.includes('<tbody')) out = out.replace(/<tbody\b/g, '</thead><tbody');
  // Prism turns a code block into a tag per token (half of an API reference page): keep only
  // its text, one line per line. Entities stay encoded, so the parser still decodes them once.
  if (out.includes('<pre')) {
    out = out.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre>/g, (_match, inner: string) =>
      `<pre>${inner.replace(/<br\b[^>]*>|<\/div>/g, '\n').replace(/<[^>]*>/g, '')}</pre>`,
    );
  }
  return out;
}

export function extractPageDetailed(html: string, options: ExtractOptions): ExtractedPage {
  const $ = load(prepareHtml(html));
  const root = $.root()[0] as unknown as DomNode;
  const info = scanPage(root);
  const rawCanonical = info.canonical ?? info.ogUrl;
  const canonical = rawCanonical ? ownString(rawCanonical) : undefined;
  const result = (skipped?: SkipReason): ExtractedPage => ({
    records: [],
    ...(skipped ? {skipped} : {}),
    ...(canonical ? {canonical} : {}),
  });

  const robots = info.metas.get('robots')?.toLowerCase() ?? '';
  if (/\bnoindex\b/.test(robots)) return result('noindex');
  const title = pageTitle(info);
  if (title === NOT_FOUND_TITLE || (info.title ?? '').startsWith(NOT_FOUND_TITLE) || /\/404(\.html)?$/.test(pathOf(options.url))) {
    return result('not-found');
  }
  if (info.htmlClass.split(/\s+/).includes('search-page-wrapper')) return result('search-page');

  const language = intern(info.metas.get('docsearch:language') || info.htmlLang || 'en');
  const tag = intern(info.metas.get('docsearch:docusaurus_tag') || 'default');
  const rawVersion = info.metas.get('docsearch:version');
  const version = rawVersion ? intern(rawVersion) : undefined;
  const url = options.url.replace(/#.*$/, '');
  const builder = new RecordBuilder(url, options.pageRank ?? 0, lvl0For(info, url), title || url, {
    language,
    docusaurus_tag: tag,
    ...(version ? {version} : {}),
  });
  const root2 = info.contentRoot ?? info.main ?? info.body ?? root;
  walkContent(root2, builder, Boolean(info.firstH1));
  const records = builder.records;
  if (options.validate !== false) {
    const invalid = findInvalidRecord(records);
    if (invalid) throw new Error(`invalid record for ${url}: ${invalid.message}`);
  }
  return {records, ...(canonical ? {canonical} : {})};
}

/** One page's HTML → its records (empty for skipped pages). `url` is the page URL without anchor. */
export function extractPage(html: string, options: ExtractOptions): SearchRecord[] {
  return extractPageDetailed(html, options).records;
}
