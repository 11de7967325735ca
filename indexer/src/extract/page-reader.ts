/**
 * Reads one page in a single streaming pass over htmlparser2's parser events: no DOM is built.
 * Building the tree (cheerio's `load`) allocated an object per node, attributes and child
 * arrays included; on a 5,000-page crawl that garbage was a fifth of the CPU time, and more
 * on worker threads with capped heaps. The parser, its tokenizer and its entity decoding are the
 * ones cheerio used, so the text read here is the same text, event for event.
 *
 * What the pass reads:
 * - from the whole page: `<html>` class and lang, the first `<title>`, `<meta>` name/property
 *   values, the canonical link and `og:url`, the first `<h1>` outside nav/aside/footer, and the
 *   outermost active category of the docs sidebar (its label link);
 * - from the content root (the skip-to-content target, else `<main>`, else `<body>`, else the
 *   whole page): the headings and text runs, in document order, as `ops` for the record builder.
 *
 * The content rules (what is skipped, what makes a block, tables, code, admonition titles) are
 * described in extract.ts and listed in content-rules.ts. Each element's text follows one rule
 * set (`TextCapture`): skipped elements contribute nothing, `<br>` and Prism code lines become
 * line breaks, and block elements end with a space.
 */
import {Parser} from 'htmlparser2';
import {
  classTokens,
  CONTENT_ROOT_ID,
  HEADINGS,
  INLINE_TAGS,
  isDefaultAdmonitionTitle,
  isSkipped,
  normalizeSpace,
  type Attribs,
} from './content-rules.ts';
import {ROBOTS_AGENT} from './robots.ts';

export {INLINE_TAGS, normalizeSpace};

/**
 * Deepest element nesting read. htmlparser2 keeps its open elements with `unshift`/`shift`, so
 * every tag costs time in proportion to the depth: 100,000 nested elements took minutes. A
 * Docusaurus page stays under 40 levels; a page past this limit is refused (PageTooDeepError)
 * and the crawl skips it with the reason `too-deep`, so no page costs more than linear time.
 */
export const MAX_NESTING_DEPTH = 1000;

export class PageTooDeepError extends Error {
  constructor() {
    super(`elements nested more than ${MAX_NESTING_DEPTH} deep`);
  }
}

/** A heading of the article: level 2–6 (h1s after the title become level 2). */
export interface HeadingOp {
  level: number;
  text: string;
  id: string | null;
}
/** What the record builder is told, in document order: a run of text, or a heading. */
export type ContentOp = string | HeadingOp;

export interface PageInfo {
  htmlClass: string;
  htmlLang?: string;
  title?: string;
  firstH1?: string;
  canonical?: string;
  ogUrl?: string;
  /** `<meta name|property>` values by lower-cased name, the first of each name. */
  metas: Map<string, string>;
  /** The content of every `<meta name="robots">` (and `name="docs-indexer"`), in document order. */
  robots: string[];
  /** The content of the first `<meta http-equiv="refresh">` (`0; url=/docs/x`). */
  refresh?: string;
  category?: string;
  /** The label of the last navbar item marked active (`.navbar__item.navbar__link--active`). */
  navbarActive?: string;
  /** Where the navbar's brand (logo and title) links to: the home page. */
  brandHref?: string;
  /** The article's headings and text runs. */
  ops: ContentOp[];
}

/**
 * The text of one element, from the events between its open and close tags: text outside
 * skipped descendants, a line break for `<br>` and for each Prism code line, and a space after
 * every other non-inline element.
 */
class TextCapture {
  readonly parts: string[] = [];
  /** Depth of the skipped descendant being ignored (0: none). */
  private skipDepth = 0;
  /** The text once the element has closed. */
  result: string | undefined;

  constructor(readonly depth: number) {}

  open(depth: number, name: string, skipped: boolean): void {
    if (this.skipDepth) return;
    if (skipped) this.skipDepth = depth;
    else if (name === 'br') this.parts.push('\n');
  }

  close(depth: number, name: string, className: string | undefined): void {
    if (this.skipDepth) {
      if (this.skipDepth === depth) this.skipDepth = 0;
      return;
    }
    if (name === 'br') return;
    if (className?.includes('token-line')) this.parts.push('\n');
    else if (!INLINE_TAGS.has(name)) this.parts.push(' ');
  }

  text(data: string): void {
    if (!this.skipDepth) this.parts.push(data);
  }

  finish(): string {
    this.result = normalizeSpace(this.parts.join(''));
    return this.result;
  }
}

const enum Role {
  /** Outside the content root, or inside a part the article walk does not enter. */
  None,
  Root,
  Skip,
  Heading,
  Pre,
  Inline,
  Block,
  /** An admonition's title: dropped when it is only the default label ("Note", "Tip", …). */
  AdmonitionTitle,
  Br,
  Table,
  TablePart,
  Row,
  Cell,
  Caption,
  /** A child of a table row that is not a cell: ignored. */
  RowOther,
}

interface Frame {
  name: string;
  className: string | undefined;
  role: Role;
  /** The walk's own text capture (headings, code, cells, captions, admonition titles). */
  capture?: TextCapture;
  level?: number;
  id?: string | null;
  /** Inside a `<thead>` (table parts and rows). */
  inHead?: boolean;
  cells?: {th: boolean; text: string}[];
  /** The walk's state before an admonition title, restored when the title is dropped. */
  saved?: {ops: number; buffer: string[]; seenH1: boolean | undefined};
  /** An admonition title's container class (it names the admonition's type). */
  admonitionClass?: string | undefined;
  /** A badge (isBadge): its text is kept apart from the text around it. */
  badge?: boolean;
}

/**
 * Whether an inline element is a badge drawn against a label: Infima's `badge`, or the count in
 * a Docusaurus tag link (`<a class="tag_… tagWithCount_…">battery<span>1</span></a>`).
 */
function isBadge(tokens: readonly string[], parent: Frame | undefined): boolean {
  if (tokens.includes('badge')) return true;
  return classTokens(parent?.className).some((token) => token.startsWith('tagWithCount_'));
}

/** Which element is the content root: the first of its kind, or (second pass) the n-th element. */
type RootPlan = {kind: 'fallback' | 'main' | 'body' | 'document'} | {index: number};

class Reader {
  readonly info: PageInfo = {htmlClass: '', metas: new Map(), robots: [], ops: []};
  private readonly stack: Frame[] = [];
  private readonly captures: TextCapture[] = [];
  private elementIndex = -1;

  // The page scan (everything but the article).
  /** Depth below which the scan looks at no element: inside title, h1, script, style, svg. */
  private scanBlocked = 0;
  private chromeDepth = 0;
  private sidebarDepth = 0;
  private titleCapture: TextCapture | undefined;
  private h1Capture: TextCapture | undefined;
  private readonly categories: TextCapture[] = [];
  private categoryFound = false;
  private readonly navbarItems: TextCapture[] = [];
  contentRoot: number | undefined;
  main: number | undefined;
  body: number | undefined;

  // The article walk.
  /** Depth of the content root (0: the whole page), -1 before it, -2 after it. */
  private walkDepth = -1;
  /** Index of the element the walk used as its root (-1: the whole page). */
  walkedRoot: number | undefined;
  /** Depth of the element whose subtree the walk does not enter (0: none). */
  private passiveDepth = 0;
  private buffer: string[] = [];
  private pendingSpace = false;
  /** Depth of a blog post's `<header>`: only its title is read, not the byline (date, reading time, authors). */
  private blogHeaderDepth = 0;
  private seenH1: boolean | undefined;

  constructor(private readonly plan: RootPlan) {
    if ('kind' in plan && plan.kind === 'document') {
      this.walkDepth = 0;
      this.walkedRoot = -1;
    }
  }

  onopentag(name: string, attribs: Attribs): void {
    const depth = this.stack.length + 1;
    if (depth > MAX_NESTING_DEPTH) throw new PageTooDeepError();
    const index = ++this.elementIndex;
    const className = attribs.class;
    const tokens = classTokens(className);
    const skipped = isSkipped(name, attribs, tokens);
    for (const capture of this.captures) capture.open(depth, name, skipped);
    const frame: Frame = {name, className, role: Role.None};
    this.scanOpen(name, attribs, tokens, depth, index);
    const space = this.pendingSpace;
    this.pendingSpace = false;
    if (this.walkDepth === -1 && this.startsWalk(index)) {
      frame.role = Role.Root;
      this.walkDepth = depth;
      this.walkedRoot = index;
    } else if (this.walkDepth >= 0 && !this.passiveDepth) {
      this.walkOpen(frame, attribs, tokens, depth, skipped, space);
    }
    this.stack.push(frame);
  }

  onclosetag(): void {
    const frame = this.stack.pop();
    if (!frame) return;
    const depth = this.stack.length + 1;
    this.pendingSpace = false;
    for (const capture of this.captures) if (capture.depth !== depth) capture.close(depth, frame.name, frame.className);
    while (this.captures.length && this.captures[this.captures.length - 1]?.depth === depth) this.captures.pop()?.finish();
    this.scanClose(depth);
    if (depth === this.walkDepth) {
      this.flush();
      this.walkDepth = -2;
    } else if (frame.role !== Role.None) {
      this.walkClose(frame, depth);
    }
  }

  ontext(data: string): void {
    this.pendingSpace = false;
    for (const capture of this.captures) capture.text(data);
    if (this.walkDepth >= 0 && !this.passiveDepth) {
      const parent = this.stack[this.stack.length - 1];
      const role = parent?.role;
      // Text directly inside a table, its parts or its rows is layout whitespace.
      if (role !== Role.Table && role !== Role.TablePart && role !== Role.Row) this.buffer.push(data);
    }
  }

  oncomment(): void {
    this.pendingSpace = false;
  }

  onprocessinginstruction(): void {
    this.pendingSpace = false;
  }

  onend(): void {
    if (this.walkDepth === 0) this.flush();
    const category = this.categories.find((c) => c.result);
    if (category) this.info.category = category.result;
    // DocSearch's template takes the last match in document order.
    const active = this.navbarItems.filter((c) => c.result).at(-1);
    if (active) this.info.navbarActive = active.result;
  }

  private capture(depth: number): TextCapture {
    const capture = new TextCapture(depth);
    this.captures.push(capture);
    return capture;
  }

  /** Whether element number `index`, just scanned, is the content root the plan names. */
  private startsWalk(index: number): boolean {
    const plan = this.plan;
    if ('index' in plan) return plan.index === index;
    switch (plan.kind) {
      case 'fallback':
        return this.contentRoot === index;
      case 'main':
        return this.main === index;
      case 'body':
        return this.body === index;
      default:
        return false;
    }
  }

  /** The page scan: everything outside the article. */
  private scanOpen(name: string, attribs: Attribs, tokens: readonly string[], depth: number, index: number): void {
    if (this.scanBlocked) return;
    const info = this.info;
    switch (name) {
      case 'html':
        info.htmlClass = attribs.class ?? '';
        info.htmlLang = attribs.lang;
        break;
      case 'title':
        if (info.title === undefined && !this.titleCapture) this.titleCapture = this.capture(depth);
        this.scanBlocked = depth;
        return;
      case 'meta': {
        // Meta names are case-insensitive (`<META NAME="ROBOTS">`): they are kept lower-cased.
        const key = (attribs.name ?? attribs.property)?.toLowerCase();
        if (key && attribs.content !== undefined && !info.metas.has(key)) info.metas.set(key, attribs.content);
        // Every robots meta counts (the most restrictive wins), and those addressed to this indexer (robots.ts).
        if ((key === 'robots' || key === ROBOTS_AGENT) && attribs.content !== undefined) info.robots.push(attribs.content);
        if (attribs['http-equiv']?.toLowerCase() === 'refresh' && attribs.content !== undefined) info.refresh ??= attribs.content;
        if (key === 'og:url') info.ogUrl = attribs.content;
        this.scanBlocked = depth;
        return;
      }
      case 'link':
        if (attribs.rel?.toLowerCase().split(/\s+/).includes('canonical') && attribs.href) info.canonical = attribs.href;
        this.scanBlocked = depth;
        return;
      case 'body':
        this.body = index;
        break;
      case 'main':
        this.main ??= index;
        break;
      case 'h1':
        if (!this.chromeDepth && info.firstH1 === undefined && !this.h1Capture) this.h1Capture = this.capture(depth);
        this.scanBlocked = depth;
        return;
      case 'script':
      case 'style':
      case 'svg':
        this.scanBlocked = depth;
        return;
      default:
        break;
    }
    if (attribs.id === CONTENT_ROOT_ID) this.contentRoot ??= index;
    if (!this.sidebarDepth && name === 'aside') this.sidebarDepth = depth;
    // The outermost active category of the docs sidebar (its label link).
    if (this.sidebarDepth && !this.categoryFound && tokens.includes('menu__link--sublist') && tokens.includes('menu__link--active')) {
      this.categories.push(this.capture(depth));
    }
    if (tokens.includes('navbar__item') && tokens.includes('navbar__link--active')) this.navbarItems.push(this.capture(depth));
    if (name === 'a' && this.info.brandHref === undefined && tokens.includes('navbar__brand') && attribs.href !== undefined) {
      this.info.brandHref = attribs.href;
    }
    if (!this.chromeDepth && (name === 'nav' || name === 'aside' || name === 'footer')) this.chromeDepth = depth;
  }

  private scanClose(depth: number): void {
    if (this.scanBlocked === depth) this.scanBlocked = 0;
    if (this.chromeDepth === depth) this.chromeDepth = 0;
    if (this.sidebarDepth === depth) this.sidebarDepth = 0;
    if (this.titleCapture?.depth === depth) {
      this.info.title ??= this.titleCapture.result;
      this.titleCapture = undefined;
    }
    if (this.h1Capture?.depth === depth) {
      this.info.firstH1 ??= this.h1Capture.result;
      this.h1Capture = undefined;
    }
    // A category found closes the search: any later candidate comes after it in document order.
    for (const category of this.categories) if (category.depth === depth && category.result) this.categoryFound = true;
  }

  private flush(): void {
    if (this.buffer.length) this.info.ops.push(this.buffer.join(''));
    this.buffer = [];
  }

  private passive(frame: Frame, role: Role, depth: number, capture: boolean): void {
    frame.role = role;
    this.passiveDepth = depth;
    if (capture) frame.capture = this.capture(depth);
  }

  private walkOpen(frame: Frame, attribs: Attribs, tokens: readonly string[], depth: number, skippedTag: boolean, space: boolean): void {
    let skipped = skippedTag;
    const name = frame.name;
    const parent = this.stack[this.stack.length - 1];
    const parentRole = parent?.role;
    if (parentRole === Role.Table || parentRole === Role.TablePart) {
      const inHead = parent?.inHead ?? false;
      if (skipped) this.passive(frame, Role.Skip, depth, false);
      else if (name === 'tr') Object.assign(frame, {role: Role.Row, inHead, cells: []});
      else if (name === 'caption') this.passive(frame, Role.Caption, depth, true);
      else Object.assign(frame, {role: Role.TablePart, inHead: inHead || name === 'thead'});
      return;
    }
    if (parentRole === Role.Row) {
      if (name === 'td' || name === 'th') this.passive(frame, Role.Cell, depth, true);
      else this.passive(frame, Role.RowOther, depth, false);
      return;
    }
    // Inline elements side by side (cards, buttons styled as blocks) keep their words apart.
    if (space) this.buffer.push(' ');
    if (this.blogHeaderDepth && depth === this.blogHeaderDepth + 1 && HEADINGS[name] === undefined) skipped = true;
    if (skipped) {
      this.passive(frame, Role.Skip, depth, false);
      return;
    }
    const level = HEADINGS[name];
    if (level !== undefined) {
      this.flush();
      this.passive(frame, Role.Heading, depth, true);
      frame.level = level;
      frame.id = attribs.id ?? null;
    } else if (name === 'br') {
      this.buffer.push(' ');
      this.passive(frame, Role.Br, depth, false);
    } else if (name === 'table') {
      this.flush();
      frame.role = Role.Table;
      frame.inHead = false;
    } else if (name === 'pre') {
      this.flush();
      this.passive(frame, Role.Pre, depth, true);
    } else if (INLINE_TAGS.has(name)) {
      frame.role = Role.Inline;
      if (isBadge(tokens, parent)) {
        // A count or badge drawn beside a label ("battery" and its "1"): a word of its own.
        frame.badge = true;
        this.buffer.push(' ');
      }
    } else if (tokens.some((t) => t.startsWith('admonitionHeading_'))) {
      frame.role = Role.AdmonitionTitle;
      frame.saved = {ops: this.info.ops.length, buffer: this.buffer.slice(), seenH1: this.seenH1};
      frame.admonitionClass = parent?.className;
      frame.capture = this.capture(depth);
      this.flush();
    } else {
      this.flush();
      frame.role = Role.Block;
      if (name === 'header' && !this.blogHeaderDepth && /\bplugin-blog\b/.test(this.info.htmlClass)) this.blogHeaderDepth = depth;
    }
  }

  private walkClose(frame: Frame, depth: number): void {
    if (this.passiveDepth === depth) this.passiveDepth = 0;
    if (this.blogHeaderDepth === depth) this.blogHeaderDepth = 0;
    const ops = this.info.ops;
    switch (frame.role) {
      case Role.Heading: {
        const text = frame.capture?.result ?? '';
        if (frame.level === 1) {
          // The page's first h1 is its title (lvl1), unless the page has none with text. By now
          // the scan has read that h1: it is this one or an earlier one.
          this.seenH1 ??= !this.info.firstH1;
          if (!this.seenH1) {
            this.seenH1 = true;
            break;
          }
        }
        if (text) ops.push({level: Math.max(frame.level ?? 2, 2), text, id: frame.id || null});
        break;
      }
      case Role.Pre:
      case Role.Caption:
        ops.push(frame.capture?.result ?? '');
        break;
      case Role.Cell:
        this.stack[this.stack.length - 1]?.cells?.push({th: frame.name === 'th', text: frame.capture?.result ?? ''});
        break;
      case Role.Row: {
        const cells = frame.cells ?? [];
        const headerRow = frame.inHead || (cells.length > 0 && cells.every((c) => c.th));
        if (!headerRow) ops.push(cells.map((c) => c.text).filter(Boolean).join(' · '));
        break;
      }
      case Role.Inline:
        if (frame.badge) this.buffer.push(' ');
        this.pendingSpace = true;
        break;
      case Role.Block:
        this.flush();
        break;
      case Role.AdmonitionTitle: {
        const saved = frame.saved;
        if (saved && isDefaultAdmonitionTitle(frame.capture?.result ?? '', frame.admonitionClass)) {
          ops.length = saved.ops;
          this.buffer = saved.buffer;
          this.seenH1 = saved.seenH1;
        } else {
          this.flush();
        }
        break;
      }
      default:
        break;
    }
  }
}

/** The content root a page most likely has, from a glance at its HTML (checked after the pass). */
function guessRoot(html: string): RootPlan {
  if (/\sid=["']?__docusaurus_skipToContent_fallback(?=["'\s/>])/.test(html)) return {kind: 'fallback'};
  if (/<main[\s/>]/i.test(html)) return {kind: 'main'};
  if (/<body[\s/>]/i.test(html)) return {kind: 'body'};
  return {kind: 'document'};
}

function run(html: string, plan: RootPlan): Reader {
  const reader = new Reader(plan);
  const parser = new Parser(reader);
  parser.end(html);
  return reader;
}

/** One pass over the page (two when the guess at its content root was wrong). */
export function readPage(html: string): PageInfo {
  const reader = run(html, guessRoot(html));
  const root = reader.contentRoot ?? reader.main ?? reader.body ?? -1;
  if (reader.walkedRoot === root) return reader.info;
  return run(html, root === -1 ? {kind: 'document'} : {index: root}).info;
}
