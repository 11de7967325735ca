/**
 * The theme's options, their defaults, and the search mode. Kept apart from the plugin so the
 * rules can be tested without Docusaurus.
 */
import type {writeLocalIndex} from 'docs-indexer';
import {PLUGIN_NAME, type SearchMode} from './global-data.ts';

export {PLUGIN_NAME, type SearchGlobalData, type SearchMode} from './global-data.ts';

/** writeLocalIndex's options, passed through (`sharded` is set from `splitAbovePages` unless given). */
export type LocalIndexWriteOptions = NonNullable<Parameters<typeof writeLocalIndex>[2]>;

/** What a site may write in `themes: [['docusaurus-theme-docs-search', {…}]]`. Every field is optional. */
export interface Options {
  /** Index the docs plugin's pages (default true). */
  indexDocs?: boolean;
  /** Index the blog plugin's pages: posts, lists, tags (default true). */
  indexBlog?: boolean;
  /** Index the pages plugin's pages (src/pages; default true). */
  indexPages?: boolean;
  /**
   * Pages left out of the local index: a string is a path below the site's baseUrl and matches
   * that page and every page under it ('docs/changelog', 'blog/tags'); a RegExp is tested
   * against the page's path with the baseUrl ('/docs-site/docs/intro').
   */
  ignore?: Array<string | RegExp>;
  /** Above this many pages the local index is a manifest plus shards fetched by need (default 50; false: one file). */
  splitAbovePages?: number | false;
  /** The search page's path below baseUrl (default: themeConfig.algolia.searchPagePath, else 'search'; false: no page). */
  searchPagePath?: string | false;
  /** The local mode's name for the modal's stored recent and favourite searches (default: siteConfig.projectName, else 'docs'). */
  indexName?: string;
  /**
   * A URL template for the no-results screen's "Let us know" link; `{query}` is replaced by the
   * query (URL-encoded). Default: a new GitHub issue in organizationName/projectName when both are
   * set, else no link.
   */
  reportMissingResults?: string | false;
  /** Inline the early search box in each page's head (default true). */
  earlySearchBox?: boolean;
  /**
   * Local mode: the early search box answers itself, from the first paint, with the modal's
   * client, order and look (default true). False: it keeps what is typed until the modal shows.
   */
  earlyAnswers?: boolean;
  /**
   * A synonyms file (JSON in Algolia's shape, `{"synonyms": [...]}`), relative to the site's
   * folder: written into the local index, whose engine answers a word with its synonyms too.
   * The same file is what `docs-indexer push --synonyms FILE` sends to Algolia. Default: none.
   */
  synonyms?: string;
  /** Passed to docs-indexer's writeLocalIndex as they are. */
  localIndex?: LocalIndexWriteOptions;
  id?: string;
}

export interface PluginOptions {
  id: string;
  indexDocs: boolean;
  indexBlog: boolean;
  indexPages: boolean;
  ignore: Array<string | RegExp>;
  splitAbovePages: number | false;
  searchPagePath: string | false | undefined;
  indexName: string | undefined;
  reportMissingResults: string | false | undefined;
  earlySearchBox: boolean;
  earlyAnswers: boolean;
  synonyms: string | undefined;
  localIndex: LocalIndexWriteOptions;
}

class OptionError extends Error {
  constructor(message: string) {
    super(`[${PLUGIN_NAME}] ${message}`);
    this.name = 'OptionError';
  }
}

const KNOWN = new Set(['id', 'indexDocs', 'indexBlog', 'indexPages', 'ignore', 'splitAbovePages', 'searchPagePath', 'indexName', 'reportMissingResults', 'earlySearchBox', 'earlyAnswers', 'synonyms', 'localIndex']);

function bool(options: Options, key: 'indexDocs' | 'indexBlog' | 'indexPages' | 'earlySearchBox' | 'earlyAnswers'): boolean {
  const value = options[key];
  if (value === undefined) return true;
  if (typeof value !== 'boolean') throw new OptionError(`option "${key}" must be true or false`);
  return value;
}

/** Checks the options a site wrote and fills the defaults; a wrong option is a one-line error. */
export function normalizeOptions(input: Options | undefined): PluginOptions {
  const options = input ?? {};
  if (typeof options !== 'object' || Array.isArray(options)) throw new OptionError('options must be an object');
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) throw new OptionError(`unknown option "${key}" (known: ${[...KNOWN].filter((k) => k !== 'id').join(', ')})`);
  }
  const ignore = options.ignore ?? [];
  if (!Array.isArray(ignore) || ignore.some((p) => typeof p !== 'string' && !(p instanceof RegExp))) {
    throw new OptionError('option "ignore" must be a list of paths (strings) and regular expressions');
  }
  const split = options.splitAbovePages ?? 50;
  if (split !== false && (typeof split !== 'number' || !Number.isInteger(split) || split < 0)) {
    throw new OptionError('option "splitAbovePages" must be a whole number of pages or false');
  }
  const page = options.searchPagePath;
  if (page !== undefined && page !== false && (typeof page !== 'string' || page.trim() === '')) {
    throw new OptionError('option "searchPagePath" must be a path such as "search", or false');
  }
  for (const key of ['indexName', 'reportMissingResults', 'synonyms'] as const) {
    const value = options[key];
    if (value !== undefined && value !== false && (typeof value !== 'string' || value === '')) throw new OptionError(`option "${key}" must be a non-empty string`);
  }
  if (options.localIndex !== undefined && (typeof options.localIndex !== 'object' || options.localIndex === null)) {
    throw new OptionError('option "localIndex" must be an object (writeLocalIndex options)');
  }
  return {
    id: options.id ?? 'default',
    indexDocs: bool(options, 'indexDocs'),
    indexBlog: bool(options, 'indexBlog'),
    indexPages: bool(options, 'indexPages'),
    ignore,
    splitAbovePages: split,
    searchPagePath: page === undefined ? undefined : page === false ? false : page.replace(/^\/+|\/+$/g, ''),
    indexName: options.indexName,
    reportMissingResults: options.reportMissingResults,
    earlySearchBox: bool(options, 'earlySearchBox'),
    earlyAnswers: bool(options, 'earlyAnswers'),
    synonyms: options.synonyms,
    localIndex: options.localIndex ?? {},
  };
}

/** Algolia mode needs all of appId, apiKey and indexName; anything less is local mode. */
export function searchModeOf(algolia: {appId?: unknown; apiKey?: unknown; indexName?: unknown} | null | undefined): SearchMode {
  const filled = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  return algolia && filled(algolia.appId) && filled(algolia.apiKey) && filled(algolia.indexName) ? 'algolia' : 'local';
}

/** The "Let us know" template from the GitHub fields of siteConfig (organizationName/projectName). */
export function githubIssueTemplate(organizationName: string | undefined, projectName: string | undefined): string | undefined {
  if (!organizationName || !projectName) return undefined;
  const title = 'Search: no results for "{query}"';
  const body = 'Searching the documentation for "{query}" returned no results. I expected to find:\n\n';
  return `https://github.com/${organizationName}/${projectName}/issues/new?title=${encodeURIComponent(title).replace('%7Bquery%7D', '{query}')}&body=${encodeURIComponent(body).replace('%7Bquery%7D', '{query}')}`;
}

const PLUGIN_GROUPS: Record<string, 'indexDocs' | 'indexBlog' | 'indexPages'> = {
  'docusaurus-plugin-content-docs': 'indexDocs',
  'docusaurus-plugin-content-blog': 'indexBlog',
  'docusaurus-plugin-content-pages': 'indexPages',
};

/** A route path as the router knows it: no trailing slash (except the root), decoded. */
function routeKey(pathname: string): string {
  let p = pathname;
  try {
    p = decodeURI(p);
  } catch {
    // keep it encoded
  }
  p = p.replace(/\/index\.html$|\.html$/, '');
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/**
 * Which crawled pages go into this build's index: pages routed by this build (so another
 * locale's pages, built into a subfolder, stay out), of the enabled plugins, not ignored.
 */
export function recordFilter({
  options,
  baseUrl,
  routes,
}: {
  options: PluginOptions;
  baseUrl: string;
  trailingSlash?: boolean | undefined;
  /** Route path → the name of the plugin that made it. */
  routes: Map<string, string>;
}): (url: string) => boolean {
  const base = baseUrl.replace(/\/*$/, '/');
  const plugins = new Map([...routes].map(([p, plugin]) => [routeKey(p), plugin]));
  const prefixes = options.ignore.filter((p): p is string => typeof p === 'string').map((p) => routeKey(`${base}${p.replace(/^\/+/, '')}`));
  const patterns = options.ignore.filter((p): p is RegExp => p instanceof RegExp);
  return (url) => {
    const key = routeKey(new URL(url, 'http://x').pathname);
    const plugin = plugins.get(key);
    if (plugin === undefined) return false;
    const group = PLUGIN_GROUPS[plugin];
    if (group && !options[group]) return false;
    if (prefixes.some((p) => key === p || key.startsWith(p.endsWith('/') ? p : `${p}/`))) return false;
    return !patterns.some((re) => re.test(key));
  };
}
