/**
 * docusaurus-theme-docs-search: the DocSearch modal and /search page for any Docusaurus 3 site,
 * answered from a local index written at build time (docs-indexer crawls the built pages), or
 * from Algolia when `themeConfig.algolia` holds an appId, a search key and an index name.
 *
 *   themes: ['docusaurus-theme-docs-search'],
 *
 * Server side (this file): options, the search mode, the /search route in local mode, the
 * early search box inlined in every page's head, and the index written after the build. The
 * browser side is the theme (src/theme: SearchBar, SearchPage, SearchTranslations) and
 * src/client (modal, launcher, shortcuts, local client).
 */
import {copyFile, mkdir} from 'node:fs/promises';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import type {LoadContext, Plugin, PluginRouteConfig, RouteConfig} from '@docusaurus/types';
import {readDefaultCodeTranslationMessages} from '@docusaurus/theme-translations';
import {crawl, formatKB, readSynonymsFile, writeLocalIndex} from 'docs-indexer';
import {LOCAL_INDEX_FORMAT, LOCAL_INDEX_PATH} from 'docs-search';
import {
  PLUGIN_NAME,
  githubIssueTemplate,
  normalizeOptions,
  recordFilter,
  searchModeOf,
  type LocalIndexWriteOptions,
  type Options,
  type PluginOptions,
  type SearchGlobalData,
} from './options.ts';
import {inlineShellScript} from './shell-script.ts';
import {EARLY_FILES, earlyDocsPlugins, earlyPaths, shellDefaultTexts, type EarlyDocsPlugin, type EarlySearchConfig} from './early-config.ts';

export type {Options, PluginOptions, SearchGlobalData, SearchMode} from './options.ts';
export {searchModeOf} from './options.ts';
export {inlineShellScript} from './shell-script.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** docs-search (by its real path in this repository or through node_modules) and this theme's local client. */
const LOCAL_SEARCH_MODULES = /[\\/](indexer[\\/]search[\\/]|node_modules[\\/]docs-search[\\/]|(indexer[\\/]docusaurus|docusaurus-theme-docs-search)[\\/]lib[\\/]client[\\/]localSearch\.js$)/;
const SHARD_READER_MODULES = /[\\/](shard-loader|engine[\\/]shards)\.[cm]?[jt]s$/;

export function isSharedSearchModule(resource: string): boolean {
  return LOCAL_SEARCH_MODULES.test(resource) && !SHARD_READER_MODULES.test(resource);
}

/** `themeConfig.algolia` as the stock theme validates it, plus what this theme reads. */
interface AlgoliaThemeConfig {
  appId?: unknown;
  apiKey?: unknown;
  indexName?: unknown;
  contextualSearch?: boolean;
  searchPagePath?: string | false | null;
  searchParameters?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * Runs before the plugin (Docusaurus merges the result into themeConfig). Algolia mode keeps
 * `themeConfig.algolia` as the stock theme normalized it. Local mode (no `algolia`, or one
 * without appId, apiKey or indexName) gives it values the stock hooks read (contextual search
 * on, the search page at `search`) and placeholders for the credentials, which are never used:
 * every search goes to the local client.
 */
export function validateThemeConfig({themeConfig}: {themeConfig: Record<string, unknown>; validate: unknown}): Record<string, unknown> {
  const algolia = (themeConfig.algolia ?? undefined) as AlgoliaThemeConfig | undefined;
  const mode = searchModeOf(algolia);
  if (mode === 'algolia') return {...themeConfig, docsSearch: {mode}};
  return {
    ...themeConfig,
    docsSearch: {mode},
    algolia: {
      contextualSearch: true,
      searchParameters: {},
      searchPagePath: 'search',
      ...algolia,
      appId: 'local',
      apiKey: 'local',
      indexName: typeof algolia?.indexName === 'string' && algolia.indexName ? algolia.indexName : 'local',
      insights: false,
    },
  };
}

export function validateOptions({options}: {options: Options | undefined; validate: unknown}): PluginOptions {
  return normalizeOptions(options);
}

/** Every route with the plugin that made it (child routes belong to their top route's plugin). */
function routePlugins(routes: readonly PluginRouteConfig[]): Map<string, string> {
  const byPath = new Map<string, string>();
  const visit = (route: RouteConfig, plugin: string) => {
    byPath.set(route.path, plugin);
    for (const child of route.routes ?? []) visit(child, plugin);
  };
  for (const route of routes) visit(route, route.plugin?.name ?? '');
  return byPath;
}

interface ThemeContent {
  texts: Record<string, string>;
}

export default function themeDocsSearch(context: LoadContext, options: PluginOptions): Plugin<ThemeContent> {
  const {baseUrl, siteConfig, i18n} = context;
  const algolia = siteConfig.themeConfig.algolia as AlgoliaThemeConfig;
  const mode = (siteConfig.themeConfig.docsSearch as {mode?: 'local' | 'algolia'} | undefined)?.mode ?? searchModeOf(algolia);
  const searchPagePath = options.searchPagePath ?? (algolia?.searchPagePath || false);
  const isDev = process.env.NODE_ENV === 'development';
  const indexName =
    options.indexName ?? (typeof algolia?.indexName === 'string' && algolia.indexName !== 'local' ? algolia.indexName : undefined) ?? siteConfig.projectName ?? 'docs';
  const rootUrl = baseUrl.replace(/\/*$/, '/');
  const indexUrl = `${rootUrl}${LOCAL_INDEX_PATH}?format=${LOCAL_INDEX_FORMAT}`;
  /** Local mode, built site: the early box answers from the first paint (early-config.ts). */
  const earlyPath = mode === 'local' && !isDev && options.earlySearchBox && options.earlyAnswers ? earlyPaths() : null;
  /** The docs plugins' versions, for the early box's contextual search (allContentLoaded). */
  let docsPlugins: EarlyDocsPlugin[] = [];
  const defaultTexts = async () => ({
    ...shellDefaultTexts(i18n.currentLocale),
    ...(await readDefaultCodeTranslationMessages({locale: i18n.currentLocale, name: 'theme-search-algolia'})),
  });

  return {
    name: PLUGIN_NAME,

    /** The search texts in the site's locale: Docusaurus's defaults, then the site's code.json. */
    async loadContent(): Promise<ThemeContent> {
      return {
        texts: {
          ...(await defaultTexts()),
          ...context.codeTranslations,
        },
      };
    },

    getThemePath() {
      return path.join(here, 'theme');
    },
    getTypeScriptThemePath() {
      return path.join(here, '..', 'src', 'theme');
    },
    getDefaultCodeTranslationMessages() {
      return defaultTexts();
    },

    async contentLoaded({actions}) {
      const data: SearchGlobalData = {
        mode,
        dev: isDev,
        indexName,
        indexUrl,
        searchPagePath: searchPagePath || null,
        missingResultsUrl:
          options.reportMissingResults === false
            ? null
            : (options.reportMissingResults ?? githubIssueTemplate(siteConfig.organizationName, siteConfig.projectName) ?? null),
      };
      actions.setGlobalData(data);
      // In Algolia mode @docusaurus/theme-search-algolia (added by the classic preset) adds it.
      if (mode === 'local' && searchPagePath) {
        actions.addRoute({
          path: `${baseUrl.replace(/\/*$/, '/')}${searchPagePath.replace(/^\/+/, '')}`,
          component: '@theme/SearchPage',
          exact: true,
        });
      }
    },

    allContentLoaded({allContent}) {
      docsPlugins = earlyDocsPlugins(allContent as Record<string, Record<string, unknown> | undefined>);
    },

    injectHtmlTags({content}) {
      if (!options.earlySearchBox) return {};
      const messages = content?.texts ?? {};
      const page = searchPagePath ? `${rootUrl}${searchPagePath.replace(/^\/+/, '')}` : '';
      const early: EarlySearchConfig | null = earlyPath
        ? {
            indexUrl,
            workerUrl: `${rootUrl}${earlyPath.worker}`,
            indexName,
            locale: i18n.currentLocale,
            contextualSearch: Boolean(algolia?.contextualSearch),
            searchParameters: (algolia?.searchParameters ?? {}) as EarlySearchConfig['searchParameters'],
            docs: docsPlugins,
            versionStorage:
              (siteConfig.themeConfig.docs as {versionPersistence?: string} | undefined)?.versionPersistence === 'none'
                ? null
                : {type: context.siteStorage?.type ?? 'localStorage', namespace: context.siteStorage?.namespace ?? ''},
            baseUrl: rootUrl,
            externalUrlRegex: typeof algolia?.externalUrlRegex === 'string' ? algolia.externalUrlRegex : null,
            replaceSearchResultPathname: (algolia?.replaceSearchResultPathname as EarlySearchConfig['replaceSearchResultPathname'] | undefined) ?? null,
            texts: {
              errorTitle: messages['theme.SearchModal.errorScreen.titleText'] ?? 'Unable to fetch results',
              errorHelp: messages['theme.SearchModal.errorScreen.helpText'] ?? 'You might want to check your network connection.',
              noResults: messages['theme.SearchModal.noResultsScreen.noResultsText'] ?? 'No results for',
              noRecent: messages['theme.SearchModal.startScreen.noRecentSearchesText'] ?? 'No recent searches',
              loading: messages['theme.SearchShell.loading'] ?? 'Loading search…',
            },
            slowAfterMs: 6000,
          }
        : null;
      return {
        headTags: [
          {
            tagName: 'script',
            innerHTML: inlineShellScript({
              searchPage: page,
              placeholder: messages['theme.SearchModal.placeholder'] ?? 'Search docs',
              cancel: messages['theme.SearchModal.searchBox.cancelButtonText'] ?? 'Cancel',
              loading: messages['theme.SearchShell.loading'],
              failed: messages['theme.SearchShell.failed'],
              early: early && earlyPath ? {url: `${rootUrl}${earlyPath.module}`, config: early} : null,
            }),
          },
        ],
      };
    },

    configureWebpack(_config, isServer) {
      if (isServer) return {};
      return {
        optimization: {
          splitChunks: {
            cacheGroups: {
              // The local search client and engine: one chunk shared by the modal and the /search
              // page, which otherwise carried a copy each (about 12.5 KB gzip apiece). The sharded
              // index's reader stays apart: docs-search loads it for a sharded index only.
              docsSearchLocal: {
                name: 'docs-search-local',
                test: (module: object) => isSharedSearchModule((module as {resource?: string}).resource ?? ''),
                chunks: 'async',
                priority: 40,
                enforce: true,
              },
            },
          },
        },
      };
    },

    async postBuild({outDir, routes}) {
      const started = performance.now();
      // docs-indexer's baseUrl is the URL of the build's root, and each locale keeps the path its
      // canonical links give it. A locale built into its own folder (build/fr/, baseUrl /base/fr/)
      // is crawled there, so its folder's segment comes off: the root is /base/, records /base/fr/….
      const localeDir = path.basename(outDir);
      const rootBaseUrl = baseUrl.endsWith(`/${localeDir}/`) && i18n.currentLocale !== i18n.defaultLocale ? baseUrl.slice(0, -localeDir.length - 1) : baseUrl;
      const siteUrl = new URL(rootBaseUrl, siteConfig.url).href;
      const keep = recordFilter({options, baseUrl, trailingSlash: siteConfig.trailingSlash, routes: routePlugins(routes)});
      const {records} = await crawl(outDir, {baseUrl: siteUrl});
      const kept = records.filter((record) => keep(record.url_without_anchor));
      const pages = new Set(kept.map((r) => r.url_without_anchor)).size;
      const writeOptions: LocalIndexWriteOptions = {
        sharded: options.splitAbovePages === false ? false : pages > options.splitAbovePages,
        ...(options.synonyms ? {synonyms: await readSynonymsFile(path.resolve(context.siteDir, options.synonyms))} : {}),
        ...options.localIndex,
      };
      const stats = await writeLocalIndex(kept, path.join(outDir, LOCAL_INDEX_PATH), writeOptions);
      if (earlyPath) {
        await mkdir(path.dirname(path.join(outDir, earlyPath.module)), {recursive: true});
        await copyFile(EARLY_FILES.module, path.join(outDir, earlyPath.module));
        await copyFile(EARLY_FILES.worker, path.join(outDir, earlyPath.worker));
      }
      const ms = Math.round(performance.now() - started);
      const size = stats.shards
        ? `sharded: manifest ${formatKB(stats.bytes)} (${formatKB(stats.gzipBytes)} gzip) + ${stats.shards.files} files ` +
          `${formatKB(stats.shards.bytes)} (${formatKB(stats.shards.gzipBytes)} gzip)`
        : `${formatKB(stats.bytes)} (${formatKB(stats.gzipBytes)} gzip)`;
      console.log(`[docs-search] ${i18n.currentLocale} ${LOCAL_INDEX_PATH}: ${pages} pages, ${stats.records} records, ${size} in ${ms} ms`);
    },
  };
}
