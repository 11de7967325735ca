/**
 * Known-item queries of a site, generated from its build (bench:theme's relevance on the fixture
 * sites, which have no query set of their own): for each page a reader's search can return from
 * where the bench starts it, the page's title, and a distinctive phrase of the page; each query is
 * answered right when that page is shown first.
 *
 * The pages and their text are docs-indexer's records of the build (the records the theme
 * indexes: list pages left out), kept to the reader's context as the theme's contextual search
 * keeps them: the start page's language, and its docs version or no docs version
 * (`docusaurus_tag` equal to the start page's or `default`: blog posts and plain pages).
 *
 * - **title**: the page's `h1` (its record's `hierarchy.lvl1`). When pages share a title, any of
 *   them first is right.
 * - **phrase**: the first run of three words in the page's text, in reading order (its headings
 *   below the title and its paragraphs, list items and table cells; the title left out), that
 *   appears on no other page of the context, made of letters only (no numbers, no code), its
 *   first and last words not stop words; else the first such run of two words; else none. "On no
 *   other page": the run, lower-cased, is not in any other page's text (title included), each
 *   text read apart (a run never spans two paragraphs).
 */
import {crawl, type SearchRecord} from 'docs-indexer';

export interface KnownItem {
  /** What the reader types. */
  q: string;
  kind: 'title' | 'phrase';
  /** The page(s) it is right to show first (URL paths, with the baseUrl). */
  pages: string[];
}

/** English stop words (lunr's list, which the lunr plugin drops, plus a few more of the same kind). */
const STOP_WORDS = new Set(
  ('a able about across after all almost also am among an and any are as at be because been but by can cannot could dear did do does ' +
    'either else ever every for from get got had has have he her hers him his how however i if in into is it its just least let like ' +
    'likely may me might most must my neither no nor not of off often on only or other our own rather said say says she should since ' +
    'so some than that the their them then there these they this tis to too twas us wants was we were what when where which while who ' +
    'whom why will with would yet you your')
    .split(' '),
);

const ENTITIES: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' '};
/** Record text is HTML-escaped (DocSearch renders it as HTML): the text a reader sees. */
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|apos|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '');

const words = (text: string) => unescape(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const isWord = (word: string) => /^\p{L}{2,}$/u.test(word);

/** Every run of `n` words of each text, joined by a space. */
function runs(texts: string[], n: number): string[] {
  const out: string[] = [];
  for (const text of texts) {
    const list = words(text);
    for (let i = 0; i + n <= list.length; i += 1) out.push(list.slice(i, i + n).join(' '));
  }
  return out;
}

const pathOf = (url: string) => new URL(url).pathname;

interface Page {
  path: string;
  title: string | null;
  /** Headings below the title and content, in reading order. */
  texts: string[];
}

/** The pages of `records` in the reader's context, each with its title and its text, in the records' order. */
function pagesOf(records: SearchRecord[], context: {language: string; tag: string}): Page[] {
  const pages = new Map<string, Page>();
  for (const record of records) {
    if (record.language !== context.language || (record.docusaurus_tag !== context.tag && record.docusaurus_tag !== 'default')) continue;
    const key = pathOf(record.url_without_anchor);
    let page = pages.get(key);
    if (!page) pages.set(key, (page = {path: key, title: null, texts: []}));
    // The title is the h1, every record's lvl1 (the first record's is taken).
    if (page.title === null && record.hierarchy.lvl1) page.title = unescape(record.hierarchy.lvl1).trim() || null;
    if (record.type === 'content') page.texts.push(record.content ?? '');
    else if (record.type !== 'lvl0' && record.type !== 'lvl1') page.texts.push(record.hierarchy[record.type] ?? '');
  }
  return [...pages.values()];
}

/** The first run of `n` words of `page` that no other page has (see the file's comment). */
function distinctive(page: Page, others: Set<string>[], n: number): string | undefined {
  return runs(page.texts, n).find((run) => {
    const list = run.split(' ');
    return list.every(isWord) && !STOP_WORDS.has(list[0]!) && !STOP_WORDS.has(list[n - 1]!) && !others.some((set) => set.has(run));
  });
}

/**
 * The known-item queries of the build in `buildDir`, for a reader who starts on `startPath`
 * (its language and docs version are the context): titles first, then phrases, pages in URL order.
 */
export async function knownItemQueries(buildDir: string, startPath: string): Promise<KnownItem[]> {
  const {records} = await crawl(buildDir, {workers: 0});
  const clean = (p: string) => p.replace(/\.html$/, '').replace(/\/index$/, '').replace(/\/$/, '');
  const start = records.find((r) => clean(pathOf(r.url_without_anchor)) === clean(startPath));
  if (!start) throw new Error(`known-item queries: no record of the start page ${startPath} in ${buildDir}`);
  const pages = pagesOf(records, {language: start.language, tag: start.docusaurus_tag}).sort((a, b) => a.path.localeCompare(b.path));
  const titles = new Map<string, KnownItem>();
  for (const page of pages) {
    if (!page.title) continue;
    const key = page.title.toLowerCase();
    const item = titles.get(key);
    if (item) item.pages.push(page.path);
    else titles.set(key, {q: page.title, kind: 'title', pages: [page.path]});
  }
  // Each page's runs of two and three words, its title's included, to tell which are another page's too.
  const all = pages.map((page) => new Set([...runs([page.title ?? '', ...page.texts], 2), ...runs([page.title ?? '', ...page.texts], 3)]));
  const phrases: KnownItem[] = [];
  pages.forEach((page, i) => {
    const others = all.filter((_, j) => j !== i);
    const phrase = distinctive(page, others, 3) ?? distinctive(page, others, 2);
    if (phrase) phrases.push({q: phrase, kind: 'phrase', pages: [page.path]});
  });
  return [...titles.values(), ...phrases];
}

/** Per kind of query: MRR@10 (the mean of 1/rank of the first shown page that is right, 0 past 10), answers first, count. */
export interface KnownItemScore {
  mrr10: number;
  first: number;
  n: number;
}

const samePath = (a: string, b: string) => {
  const clean = (p: string) => p.replace(/\.html$/, '').replace(/\/index$/, '').replace(/\/$/, '');
  return a !== '' && clean(a) === clean(b);
};

/** The rank (1-based) of the first shown page that answers `item`, 0 when none of the first 10 does. */
export function rankOf(item: KnownItem, shown: string[]): number {
  return shown.slice(0, 10).findIndex((p) => item.pages.some((want) => samePath(p, want))) + 1;
}

export function scoreKnownItems(items: KnownItem[], shown: string[][]): Record<KnownItem['kind'], KnownItemScore> {
  const score = (kind: KnownItem['kind']): KnownItemScore => {
    const ranks = items.flatMap((item, i) => (item.kind === kind ? [rankOf(item, shown[i] ?? [])] : []));
    const mrr = ranks.length === 0 ? 0 : ranks.reduce((sum, r) => sum + (r > 0 ? 1 / r : 0), 0) / ranks.length;
    return {mrr10: Number(mrr.toFixed(3)), first: ranks.filter((r) => r === 1).length, n: ranks.length};
  };
  return {title: score('title'), phrase: score('phrase')};
}
