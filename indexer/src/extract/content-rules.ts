/**
 * The content rules the page reader (page-reader.ts) applies to each element: what is skipped
 * (navigation, buttons, Docusaurus chrome by class), which elements are inline, heading levels,
 * admonitions' default titles (in every locale Docusaurus ships), the content root's id, and how
 * text is normalized. extract.ts describes what they mean for the records.
 */
import {ADMONITION_TITLE_TRANSLATIONS} from './docusaurus-translations.ts';

export type Attribs = Record<string, string>;

const SKIP_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'nav', 'aside', 'footer', 'button', 'iframe',
  'object', 'canvas', 'img', 'picture', 'video', 'audio', 'input', 'select', 'textarea', 'head',
]);

const SKIP_CLASSES = new Set([
  'hash-link', 'theme-doc-toc-mobile', 'theme-doc-toc-desktop', 'table-of-contents',
  'theme-doc-breadcrumbs', 'breadcrumbs', 'pagination-nav', 'theme-doc-footer',
  'theme-edit-this-page', 'theme-last-updated', 'theme-doc-version-badge',
  'theme-doc-version-banner', 'theme-back-to-top-button', 'theme-doc-card-container',
  'theme-announcement-bar', 'DocSearch', 'docusaurus-mermaid-container', 'tabs', 'avatar',
]);

/** Class prefixes of Docusaurus CSS modules (the suffix is a build hash). */
/** Also category cards (whose class names changed across 3.x releases) and blog author blocks. */
const SKIP_CLASS_PREFIXES = ['buttonGroup_', 'copyButton', 'docCardListItem_', 'cardContainer_', 'authorCol_'];

export const INLINE_TAGS = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'ins', 'kbd',
  'label', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var',
  'wbr', 'font', 'tt',
]);

export const HEADINGS: Record<string, number> = {h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6};

/** Default admonition titles by type, in every locale Docusaurus ships ("note", "remarque", …). */
const DEFAULT_ADMONITION_TITLES = new Map(Object.entries(ADMONITION_TITLE_TRANSLATIONS).map(([type, titles]) => [type, new Set(titles)]));

/** For an admonition whose type is not known: any type's default title, in any locale. */
const ANY_ADMONITION_TITLE = new Set(['important', ...Object.values(ADMONITION_TITLE_TRANSLATIONS).flat()]);

/** Whether `title` is the default title of the admonition whose class is `className`. */
export function isDefaultAdmonitionTitle(title: string, className: string | undefined): boolean {
  const lower = title.toLowerCase();
  const type = className ? /\btheme-admonition-([a-z]+)\b/.exec(className)?.[1] : undefined;
  const titles = type ? DEFAULT_ADMONITION_TITLES.get(type) : undefined;
  return (titles ?? ANY_ADMONITION_TITLE).has(lower);
}

export const CONTENT_ROOT_ID = '__docusaurus_skipToContent_fallback';

/**
 * Control characters that are not HTML whitespace (C0 but tab, line feed, form feed and carriage
 * return; DEL; C1): a browser shows nothing for them (a NUL in the text is dropped by its parser),
 * so they are removed, not turned into spaces: a NUL inside a word leaves the word whole.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const INVISIBLE_CONTROLS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]+/g;

/**
 * Whitespace runs (zero-width spaces included) become one space; control characters (a NUL, an
 * ESC from `&#27;`) are dropped: they must reach neither a record nor a terminal.
 */
export function normalizeSpace(text: string): string {
  return text.replace(INVISIBLE_CONTROLS, '').replace(SPACE_TO_NORMALIZE, ' ').trim();
}

/**
 * The whitespace normalizeSpace replaces: runs of two or more, and any single whitespace
 * character but a plain space. A lone space, the common case, is left alone: replacing each of a
 * 7.9 MB paragraph's 1.6 million spaces by itself took over 100 MB of memory.
 */
const SPACE_TO_NORMALIZE = /[\s\u200b]{2,}|[^\S ]|\u200b/g;

export function classTokens(value: string | undefined): string[] {
  return value ? value.split(/\s+/) : [];
}

export function isSkipped(name: string, attribs: Attribs, tokens: readonly string[]): boolean {
  if (SKIP_TAGS.has(name)) return true;
  if (attribs['aria-hidden'] === 'true' || attribs.role === 'tablist') return true;
  for (const token of tokens) {
    if (SKIP_CLASSES.has(token)) return true;
    for (const prefix of SKIP_CLASS_PREFIXES) if (token.startsWith(prefix)) return true;
  }
  return false;
}
