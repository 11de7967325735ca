/**
 * The early search box's answers (shell.inline.js): loaded by the box when it first opens, long
 * before the app, it fetches the local index with the same client the modal uses (docs-search's
 * createLocalSearchClient), asks it the request the DocSearch modal sends (modalParams, with the
 * page's contextual facet filters computed as Docusaurus's hooks compute them), and draws the hits
 * in the modal's order and grouping (modalOrder) with the modal's markup and stylesheet. Arrow
 * keys move the selection, Enter opens the selected hit. When the modal takes over it answers from
 * this very client (localSearch.ts reuses it: the index is fetched and built once) and the box
 * hands it the query and the selection (shell.ts).
 *
 * Bundled on its own (scripts/build.js, esbuild) into lib/early/, copied into the build by the
 * theme's postBuild; the inline box imports it by URL. It never runs on the server.
 */
import {modalOrder, modalParams, type AlgoliaHit, type QueryParams} from 'docs-search';
import {workerClient} from './worker-client.ts';
// The modal's own stylesheet, as text (esbuild's text loader): the box draws hits as the modal does.
import modalCss from '@docsearch/css/dist/modal.css';
import type {EarlyDocsPlugin, EarlySearchConfig, EarlyState} from '../early-types.ts';

export type {EarlyDocsPlugin, EarlySearchConfig} from '../early-types.ts';

/** A hit as the box and the modal show it: DocSearch's item with its parent. */
export interface ShownHit extends AlgoliaHit {
  url: string;
  __docsearch_parent: ShownHit | null;
}

export interface ShownGroup {
  title: string;
  hits: ShownHit[];
}

// ---------------------------------------------------------------------------------------------
// Contextual search, as @docusaurus/theme-search-algolia's useAlgoliaContextualFacetFilters and
// plugin-content-docs's useDocsContextualSearchTags compute it.

function matchesPath(pathname: string, path: string): boolean {
  const base = path.replace(/\/+$/, '');
  return base === '' || pathname === base || pathname.startsWith(`${base}/`);
}

function activePlugin(docs: EarlyDocsPlugin[], pathname: string): EarlyDocsPlugin | undefined {
  return [...docs].sort((a, b) => (a.path < b.path ? 1 : a.path > b.path ? -1 : 0)).find((p) => matchesPath(pathname, p.path));
}

function activeVersion(plugin: EarlyDocsPlugin, pathname: string): EarlyDocsPlugin['versions'][number] | undefined {
  const sorted = [...plugin.versions].sort((a, b) => (a.path === b.path ? 0 : a.path.includes(b.path) ? -1 : b.path.includes(a.path) ? 1 : 0));
  return sorted.find((v) => matchesPath(pathname, v.path));
}

function preferredVersion(config: EarlySearchConfig, plugin: EarlyDocsPlugin): string | null {
  if (!config.versionStorage) return null;
  try {
    const storage = window[config.versionStorage.type];
    const name = storage.getItem(`docs-preferred-version-${plugin.id}${config.versionStorage.namespace}`);
    return plugin.versions.some((v) => v.name === name) ? name : null;
  } catch {
    return null;
  }
}

export function contextualFacetFilters(config: EarlySearchConfig, pathname: string, preferred = (p: EarlyDocsPlugin) => preferredVersion(config, p)): [string, string[]] {
  const active = activePlugin(config.docs, pathname);
  const tags = config.docs.map((plugin) => {
    const current = active?.id === plugin.id ? activeVersion(plugin, pathname)?.name : undefined;
    const version = current ?? preferred(plugin) ?? plugin.versions.find((v) => v.last)?.name;
    return `docs-${plugin.id}-${version}`;
  });
  return [`language:${config.locale}`, ['default', ...tags].map((tag) => `docusaurus_tag:${tag}`)];
}

/** The modal's request for `query` on this page (DocSearch 3.9's, with the SearchBar's searchParameters). */
export function earlyParams(config: EarlySearchConfig, query: string, pathname: string, narrow: boolean): QueryParams {
  const configured = config.searchParameters.facetFilters as QueryParams['facetFilters'];
  let facetFilters: unknown = configured ?? [];
  if (config.contextualSearch) {
    const contextual = contextualFacetFilters(config, pathname);
    const normalize = (f: unknown) => (typeof f === 'string' ? [f] : (f as unknown[]));
    facetFilters = configured === undefined ? contextual : [...contextual, ...normalize(configured)];
  }
  return {...modalParams(query, narrow ? 5 : 10), clickAnalytics: false, ...config.searchParameters, facetFilters: facetFilters as QueryParams['facetFilters']};
}

/** A record URL as the modal links it (useSearchResultUrlProcessor). */
export function resultUrl(config: EarlySearchConfig, url: string): string {
  const parsed = new URL(url, window.location.href);
  if (config.externalUrlRegex && new RegExp(config.externalUrlRegex).test(parsed.href)) return url;
  let relative = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  const replace = config.replaceSearchResultPathname;
  if (replace) relative = relative.replace(new RegExp(replace.from, 'g'), replace.to);
  if (relative.startsWith(config.baseUrl) || !relative.startsWith('/')) return relative;
  return `${config.baseUrl}${relative.slice(1)}`;
}

/** DocSearch's groups and items: modalOrder's order, each group titled by its lvl0, parents set. */
export function shownGroups(config: EarlySearchConfig, hits: AlgoliaHit[]): ShownGroup[] {
  const groups: ShownGroup[] = [];
  const byTitle = new Map<string, ShownGroup>();
  const lvl0 = (h: AlgoliaHit) => {
    const hl = h._highlightResult as {hierarchy?: {lvl0?: {value?: string}}} | undefined;
    return String(hl?.hierarchy?.lvl0?.value ?? h.hierarchy?.lvl0).replace(/<\/?mark>/g, '');
  };
  const ordered = modalOrder(hits).map((h) => ({...h, url: resultUrl(config, String(h.url)), __docsearch_parent: null}) as ShownHit);
  for (const hit of ordered) {
    const title = lvl0(hit);
    let group = byTitle.get(title);
    if (!group) {
      group = {title, hits: []};
      byTitle.set(title, group);
      groups.push(group);
    }
    group.hits.push(hit);
  }
  for (const group of groups) {
    for (const hit of group.hits) {
      if (hit.type === 'lvl1') continue;
      hit.__docsearch_parent = group.hits.find((p) => p.type === 'lvl1' && p.hierarchy?.lvl1 === hit.hierarchy?.lvl1) ?? null;
    }
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------
// Drawing, with DocSearch's markup (its ResultsScreen, ErrorScreen and NoResultsScreen).

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const svg = (d: string, extra = '') =>
  `<svg width="20" height="20" viewBox="0 0 20 20"${extra}><path d="${d}" stroke="currentColor" fill="none" fill-rule="evenodd" stroke-linecap="round" stroke-linejoin="round"></path></svg>`;
const ICONS = {
  lvl1: svg('M17 6v12c0 .52-.2 1-1 1H4c-.7 0-1-.33-1-1V2c0-.55.42-1 1-1h8l5 5zM14 8h-3.13c-.51 0-.87-.34-.87-.87V4'),
  content: svg('M17 5H3h14zm0 5H3h14zm0 5H3h14z'),
  other: svg('M13 13h4-4V8H7v5h6v4-4H7V8H3h4V3v5h6V3v5h4-4v5zm-6 0v4-4H3h4z'),
};
const SELECT_ICON =
  '<svg class="DocSearch-Hit-Select-Icon" width="20" height="20" viewBox="0 0 20 20"><g stroke="currentColor" fill="none" fill-rule="evenodd" stroke-linecap="round" stroke-linejoin="round"><path d="M18 3v4c0 2-2 4-4 4H2"></path><path d="M8 17l-6-6 6-6"></path></g></svg>';
const ERROR_ICON =
  '<svg width="40" height="40" viewBox="0 0 20 20" fill="none" fill-rule="evenodd" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round"><path d="M19 4.8a16 16 0 00-2-1.2m-3.3-1.2A16 16 0 001.1 4.7M16.7 8a12 12 0 00-2.8-1.4M10 6a12 12 0 00-6.7 2M12.3 14.7a4 4 0 00-4.5 0M14.5 11.4A8 8 0 0010 10M3 16L18 2M10 18h0"></path></svg>';
const NO_RESULTS_ICON =
  '<svg width="40" height="40" viewBox="0 0 20 20" fill="none" fill-rule="evenodd" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round"><path d="M15.5 4.8c2 3 1.7 7-1 9.7h0l4.3 4.3-4.3-4.3a7.8 7.8 0 01-9.8 1m-2.2-2.2A7.8 7.8 0 0113.2 2.4M2 18L18 2"></path></svg>';

/** `_snippetResult[attribute].value`, else the attribute's own text (escaped), as DocSearch's Snippet. */
function snippetHtml(hit: AlgoliaHit, attribute: string): string {
  const get = (root: unknown, path: string) =>
    path.split('.').reduce<unknown>((value, key) => (value && (value as Record<string, unknown>)[key] ? (value as Record<string, unknown>)[key] : null), root);
  const snippet = get(hit, `_snippetResult.${attribute}.value`);
  if (typeof snippet === 'string' && snippet) return snippet;
  const raw = get(hit, attribute);
  return raw === null || raw === undefined ? '' : esc(String(raw));
}

function hitHtml(hit: ShownHit, index: number, next: ShownHit | undefined, id: number, selected: boolean): string {
  const type = String(hit.type);
  const levels = hit.hierarchy as Record<string, string | null> | undefined;
  let content = '';
  if (type === 'lvl1' && levels?.lvl1) {
    content = `<span class="DocSearch-Hit-title">${snippetHtml(hit, 'hierarchy.lvl1')}</span>${hit.content ? `<span class="DocSearch-Hit-path">${snippetHtml(hit, 'content')}</span>` : ''}`;
  } else if (/^lvl[2-6]$/.test(type) && levels?.[type]) {
    content = `<span class="DocSearch-Hit-title">${snippetHtml(hit, `hierarchy.${type}`)}</span><span class="DocSearch-Hit-path">${snippetHtml(hit, 'hierarchy.lvl1')}</span>`;
  } else if (type === 'content') {
    content = `<span class="DocSearch-Hit-title">${snippetHtml(hit, 'content')}</span><span class="DocSearch-Hit-path">${snippetHtml(hit, 'hierarchy.lvl1')}</span>`;
  }
  const tree = hit.__docsearch_parent
    ? `<svg class="DocSearch-Hit-Tree" viewBox="0 0 24 54"><g stroke="currentColor" fill="none" fill-rule="evenodd" stroke-linecap="round" stroke-linejoin="round"><path d="${hit.__docsearch_parent !== next?.__docsearch_parent ? 'M8 6v21M20 27H8.3' : 'M8 6v42M20 27H8.3'}"></path></g></svg>`
    : '';
  const icon = type === 'lvl1' ? ICONS.lvl1 : type === 'content' ? ICONS.content : ICONS.other;
  return (
    `<li class="DocSearch-Hit${hit.__docsearch_parent ? ' DocSearch-Hit--Child' : ''}" id="search-shell-item-${id}" role="option" aria-selected="${selected}" data-index="${index}">` +
    `<a class="docs-search-hit" data-href="${esc(hit.url)}"><div class="DocSearch-Hit-Container">${tree}<div class="DocSearch-Hit-icon">${icon}</div>` +
    `${content ? `<div class="DocSearch-Hit-content-wrapper">${content}</div>` : ''}<div class="DocSearch-Hit-action">${SELECT_ICON}</div></div></a></li>`
  );
}

export function resultsHtml(groups: ShownGroup[], selected: number): string {
  let index = 0;
  const sections = groups.map((group, g) => {
    const items = group.hits.map((hit, i) => {
      const html = hitHtml(hit, index, group.hits[i + 1], index, index === selected);
      index += 1;
      return html;
    });
    return `<section class="DocSearch-Hits"><div class="DocSearch-Hit-source">${esc(group.title)}</div><ul role="listbox" id="search-shell-list-${g}" aria-label="${esc(group.title)}">${items.join('')}</ul></section>`;
  });
  return `<div class="DocSearch-Dropdown-Container">${sections.join('')}</div>`;
}

export function errorHtml(texts: EarlySearchConfig['texts']): string {
  return `<div class="DocSearch-ErrorScreen"><div class="DocSearch-Screen-Icon">${ERROR_ICON}</div><p class="DocSearch-Title">${esc(texts.errorTitle)}</p><p class="DocSearch-Help">${esc(texts.errorHelp)}</p></div>`;
}

export function noResultsHtml(texts: EarlySearchConfig['texts'], query: string): string {
  return `<div class="DocSearch-NoResults"><div class="DocSearch-Screen-Icon">${NO_RESULTS_ICON}</div><p class="DocSearch-Title">${esc(texts.noResults)} "<strong>${esc(query)}</strong>"</p></div>`;
}

/** DocSearch's start screen without stored searches. */
export function startScreenHtml(texts: EarlySearchConfig['texts']): string {
  return `<div class="DocSearch-StartScreen"><p class="DocSearch-Help">${esc(texts.noRecent)}</p></div>`;
}

/** Whether DocSearch would list recent or favourite searches on its start screen. */
function hasStoredSearches(indexName: string): boolean {
  try {
    return ['RECENT', 'FAVORITE'].some((kind) => {
      const stored = JSON.parse(window.localStorage.getItem(`__DOCSEARCH_${kind}_SEARCHES__${indexName}`) ?? '[]') as unknown;
      return Array.isArray(stored) && stored.length > 0;
    });
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The box.

function addStylesheet(): void {
  if (document.getElementById('search-shell-docsearch-css')) return;
  const style = document.createElement('style');
  style.id = 'search-shell-docsearch-css';
  style.textContent = modalCss;
  document.head.appendChild(style);
}

function state(config: EarlySearchConfig): EarlyState {
  const existing = window.__docsSearchEarly;
  if (existing && existing.indexUrl === config.indexUrl) return existing;
  const created: EarlyState = {
    client: workerClient(config.workerUrl, config.indexUrl, window.__docsSearchWorker?.worker ?? null),
    indexUrl: config.indexUrl,
    selected: 0,
    count: 0,
    query: '',
  };
  window.__docsSearchEarly = created;
  return created;
}

/** Makes `box` (the shell's dialog, with its input and status line) answer as the modal does. */
export function attach(box: HTMLElement, config: EarlySearchConfig): void {
  addStylesheet();
  const early = state(config);
  const input = box.querySelector('input')!;
  const status = box.querySelector<HTMLElement>('[role=status]');
  const dropdown = document.createElement('div');
  dropdown.className = 'DocSearch-Dropdown search-shell__dropdown';
  // Its hits hold no focusable element (as in the modal), so the list itself takes the focus for a
  // keyboard to scroll it (axe scrollable-region-focusable; the modal has its results footer's link).
  dropdown.tabIndex = 0;
  status?.after(dropdown);
  const listIds = () => [...dropdown.querySelectorAll<HTMLElement>('li[role=option]')];
  let groups: ShownGroup[] = [];
  let hits: ShownHit[] = [];
  let asked = 0;
  let loaded = false;
  let failed = false;
  early.selected = 0;
  early.count = 0;

  const showStatus = (text: string | null) => {
    if (!status) return;
    status.hidden = text === null;
    if (text !== null) status.textContent = text;
  };

  const select = (index: number) => {
    early.selected = index;
    const items = listIds();
    for (const item of items) item.setAttribute('aria-selected', String(Number(item.dataset.index) === index));
    const current = items[index];
    if (current) {
      input.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({block: 'nearest'});
    } else input.removeAttribute('aria-activedescendant');
  };

  const render = (query: string) => {
    early.query = query;
    // Which query the hits below answer (read by the browser tests).
    dropdown.dataset.query = query;
    hits = groups.flatMap((g) => g.hits);
    early.count = hits.length;
    early.selected = 0;
    if (!query) {
      dropdown.innerHTML = loaded && !hasStoredSearches(config.indexName) ? startScreenHtml(config.texts) : '';
      showStatus(loaded || failed ? null : config.texts.loading);
      input.removeAttribute('aria-activedescendant');
      return;
    }
    showStatus(null);
    dropdown.innerHTML = hits.length > 0 ? resultsHtml(groups, 0) : noResultsHtml(config.texts, query);
    select(0);
  };

  const slowTimer = window.setTimeout(() => {
    if (!loaded && input.value) {
      showStatus(null);
      dropdown.innerHTML = errorHtml(config.texts);
    }
  }, config.slowAfterMs);

  const run = () => {
    const query = input.value;
    const ticket = ++asked;
    if (!query) {
      groups = [];
      render('');
      return;
    }
    const params = earlyParams(config, query, window.location.pathname, window.matchMedia('(max-width: 768px)').matches);
    early.client.search({requests: [{indexName: config.indexName, ...params}]}).then(
      ({results}) => {
        loaded = true;
        failed = false;
        window.clearTimeout(slowTimer);
        if (ticket !== asked || !box.isConnected) return;
        groups = shownGroups(config, results[0]?.hits ?? []);
        render(query);
      },
      () => {
        failed = true;
        if (ticket !== asked || !box.isConnected) return;
        groups = [];
        early.count = 0;
        showStatus(null);
        dropdown.innerHTML = errorHtml(config.texts);
      },
    );
  };

  input.addEventListener('input', run);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (hits.length === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      select((early.selected + step + hits.length) % hits.length);
    } else if (event.key === 'Enter' && !event.isComposing) {
      const hit = hits[early.selected];
      if (!hit || !input.value) return;
      event.preventDefault();
      window.location.assign(hit.url);
    }
  });
  // A hit holds no link (an option's content is presentational, as in the modal's hits): a click
  // opens it, a middle or modified click in a new tab.
  const openHit = (event: MouseEvent) => {
    const target = (event.target as Element).closest<HTMLElement>('[data-href]');
    const url = target?.dataset.href;
    if (!url || event.button > 1) return;
    event.preventDefault();
    if (event.button === 1 || event.ctrlKey || event.metaKey || event.shiftKey) window.open(url, '_blank', 'noopener');
    else window.location.assign(url);
  };
  dropdown.addEventListener('click', openHit);
  dropdown.addEventListener('auxclick', openHit);
  dropdown.addEventListener('mousemove', (event) => {
    const item = (event.target as Element).closest<HTMLElement>('li[role=option]');
    if (item && Number(item.dataset.index) !== early.selected) select(Number(item.dataset.index));
  });
  input.setAttribute('aria-autocomplete', 'list');
  // The index starts downloading now, with the box, whatever is typed.
  if (input.value) run();
  else {
    showStatus(config.texts.loading);
    early.client.search({requests: [{indexName: config.indexName, query: '', hitsPerPage: 0}]}).then(
      () => {
        loaded = true;
        window.clearTimeout(slowTimer);
        if (!input.value && box.isConnected) render('');
      },
      () => {
        failed = true;
        if (!input.value && box.isConnected) {
          showStatus(null);
          dropdown.innerHTML = errorHtml(config.texts);
        }
      },
    );
  }
}
