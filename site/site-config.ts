/**
 * The site's Docusaurus config, made by `createSiteConfig()`: docusaurus.config.ts is the
 * published site's; a variant (`SiteVariant`) leaves out overrides or the page template, for the
 * bench's comparisons only.
 */
import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import {themes as prismThemes, type PrismTheme} from 'prism-react-renderer';
import remarkApi from './plugins/remark-api';
import remarkNeedsHydration from './plugins/remark-needs-hydration';
import frameworkModules from './plugins/framework-modules';
import {cssVariablePrismTheme} from './plugins/code-blocks';
import {routeScriptsPlugin, ssrTemplate} from './plugins/ssr-template';
import {keeps} from './plugins/overrides';

/** A build other than the published one (indexer/bench/site-variant.config.ts makes them). */
export interface SiteVariant {
  /** Overrides of site/overrides.json left out: the stock Docusaurus behaviour instead. */
  without?: readonly string[];
  /** Docusaurus's own page template, no route scripts and no early search box. */
  stockTemplate?: boolean;
  /** The early search box without its own answers. */
  noEarlyAnswers?: boolean;
}

/** Where the site is deployed. CI sets SITE_URL for GitHub Pages; the default is the production host. */
const SITE_URL = process.env.SITE_URL ?? 'https://homewizard-api-docs.github.io';
/** The source repository: edit links, the footer and "Let us know" point here. */
const REPO_URL = 'https://github.com/homewizard-api-docs/homewizard-api-docs';
const COMPANY_URL = 'https://www.homewizard.com';
const HELPDESK_URL = 'https://helpdesk.homewizard.com';

/**
 * Search (docusaurus-theme-docs-search, indexer/docusaurus): with all three variables set,
 * themeConfig.algolia holds them and the DocSearch modal and the /search page query Algolia;
 * otherwise there is no themeConfig.algolia and they answer from the local index the theme
 * writes into the build. Only the public search-only key is read here: the write key never
 * reaches the site.
 */
const ALGOLIA_APP_ID = process.env.ALGOLIA_APP_ID ?? '';
const ALGOLIA_SEARCH_API_KEY = process.env.ALGOLIA_SEARCH_API_KEY ?? '';
const ALGOLIA_INDEX_NAME = process.env.ALGOLIA_INDEX_NAME ?? '';
const SEARCH_MODE: 'algolia' | 'local' =
  ALGOLIA_APP_ID && ALGOLIA_SEARCH_API_KEY && ALGOLIA_INDEX_NAME ? 'algolia' : 'local';

/** Change the id whenever the announcement changes: readers who closed the old one see the new one. */
const ANNOUNCEMENT_ID = 'api-v2-batteries-2026';

/**
 * Runs in <head>, before the theme's inline script hides a dismissed bar. The theme's script only
 * reads the stored dismissal, not the stored id, so on the first page load after the id changed
 * the new bar stayed hidden until the next load. Storage keys carry a per-site namespace suffix.
 */
const ANNOUNCEMENT_RESET_SCRIPT = `(function(){try{var p='docusaurus.announcement.id';Object.keys(localStorage).forEach(function(k){if(k.indexOf(p)===0&&localStorage.getItem(k)!==${JSON.stringify(ANNOUNCEMENT_ID)}){localStorage.setItem('docusaurus.announcement.dismiss'+k.slice(p.length),'false');}});}catch(e){}})();`;

/**
 * Code colours that pass WCAG AAA enhanced contrast (7:1, axe color-contrast-enhanced) for every
 * token on its own background, in both modes (the public site's 931 failing elements were mostly
 * code tokens). Checked by e2e/every-page.spec.ts. The themes' colours below 7:1 keep their hue and
 * saturation, darkened on white (vsLight) or lightened on #282c34 (oceanicNext) just enough.
 */
function recoloured(theme: PrismTheme, colours: Record<string, string>): PrismTheme {
  return {
    ...theme,
    styles: theme.styles.map((s) => {
      const colour = s.style.color && colours[s.style.color];
      return colour ? {...s, style: {...s.style, color: colour}} : s;
    }),
  };
}
const lightCodeTheme = recoloured(prismThemes.vsLight, {
  'rgb(0, 128, 0)': '#006700', // comment, 5.1:1
  'rgb(0, 112, 193)': '#005a9c', // builtin, 5.1:1
  'rgb(9, 134, 88)': '#076542', // number, variable, inserted, 4.6:1
  'rgb(255, 0, 0)': '#b40000', // attr-name, 4.0:1
  'rgb(38, 127, 153)': '#1d5f73', // class-name, 4.6:1
});
const darkCodeTheme = recoloured(prismThemes.oceanicNext, {
  '#c5a5c5': '#cdb1cd', // attr-name, keyword, 6.4:1
  '#999999': '#b9b9b9', // comment, 4.9:1
  '#5a9bcf': '#93bee0', // property, number, constant, 4.7:1
  '#ff8b50': '#ffa272', // boolean, 6.0:1
  '#fc929e': '#fc9fa9', // tag, 6.5:1
  '#79b6f2': '#87bef3', // function, 6.5:1
});

export function createSiteConfig(variant: SiteVariant = {}): Config {
  const without = variant.without ?? [];
  const has = (name: string) => keeps(without, name);
  return {
    title: 'HomeWizard Energy API',
    tagline: 'The local REST API of HomeWizard Energy devices, versions 1 and 2',
    favicon: 'img/favicon.svg',
    url: SITE_URL,
    baseUrl: '/',
    trailingSlash: false,
    // GitHub Pages fields; the search theme also names its stored searches after projectName and
    // sends "Let us know" (no results) to a new issue in organizationName/projectName.
    organizationName: 'homewizard-api-docs',
    projectName: 'homewizard-api-docs',

    future: {
      v4: true,
      faster: true,
    },

    // The app's scripts run after the first paint (plugins/ssr-template.ts).
    ...(variant.stockTemplate || !has('ssr-template') ? {} : {ssrTemplate}),
    headTags: [{tagName: 'script', attributes: {}, innerHTML: ANNOUNCEMENT_RESET_SCRIPT}],

    onBrokenLinks: 'throw',
    onBrokenAnchors: 'warn',
    onDuplicateRoutes: 'warn',
    markdown: {
      mermaid: true,
      hooks: {onBrokenMarkdownLinks: 'warn'},
    },

    i18n: {
      defaultLocale: 'en',
      locales: ['en'],
      localeConfigs: {en: {label: 'English', direction: 'ltr', htmlLang: 'en'}},
    },

    presets: [
      [
        'classic',
        {
          // The docs plugin is registered below (plugins/docs-root) so /docs gets its root page.
          docs: false,
          blog: false,
          theme: {customCss: './src/css/custom.css'},
        } satisfies Preset.Options,
      ],
    ],

    plugins: [
      ['./plugins/bundle-split/index.ts', {without}],
      ['./plugins/code-blocks/index.ts', {light: lightCodeTheme, dark: darkCodeTheme, without}],
      [
        './plugins/docs-root/index.ts',
        {
          routeBasePath: 'docs',
          sidebarPath: './sidebars.ts',
          editUrl: `${REPO_URL}/edit/main/site/`,
          showLastUpdateTime: false,
          // Expands <ApiFields>, <ApiExample> and <ApiDownload> from site/api at build time, then marks
          // the docs whose MDX still has a component for the browser (src/server-article hydrates those).
          beforeDefaultRemarkPlugins: [remarkApi, remarkNeedsHydration],
        },
      ],
      // Copies the API descriptions in site/api to /api/ in the build, as downloadable files.
      './plugins/api-publish.ts',
      // Docusaurus's Head replaced by the site's own; the swizzles of left-out overrides sent back to the theme's.
      [frameworkModules, {without}],
      // Each page's route chunks load with main.js (plugins/ssr-template.ts): a list of our template's loader.
      ...(variant.stockTemplate || !has('ssr-template') || !has('route-scripts') ? [] : [routeScriptsPlugin]),
    ],

    // Search: the DocSearch modal and /search, local index or Algolia (indexer/docusaurus/README.md).
    themes: [
      '@docusaurus/theme-mermaid',
      ['docusaurus-theme-docs-search', {synonyms: 'search-synonyms.json', earlySearchBox: !variant.stockTemplate, earlyAnswers: !variant.noEarlyAnswers}],
    ],

    themeConfig: {
      metadata: [
        {
          name: 'keywords',
          content:
            'HomeWizard, local API, REST API, P1 meter, kWh meter, plug-in battery, water meter, energy socket',
        },
      ],
      colorMode: {
        defaultMode: 'light',
        disableSwitch: false,
        respectPrefersColorScheme: false,
      },
      announcementBar: {
        id: ANNOUNCEMENT_ID,
        content:
          'API v2 now covers the Plug-In Battery. <a href="/docs/v2/batteries">Read the batteries reference</a>.',
        isCloseable: true,
      },
      docs: {
        sidebar: {hideable: false, autoCollapseCategories: false},
      },
      ...(SEARCH_MODE === 'algolia'
        ? {
            algolia: {
              appId: ALGOLIA_APP_ID,
              apiKey: ALGOLIA_SEARCH_API_KEY,
              indexName: ALGOLIA_INDEX_NAME,
              contextualSearch: true,
              insights: true,
              searchPagePath: 'search',
            },
          }
        : {}),
      tableOfContents: {minHeadingLevel: 2, maxHeadingLevel: 3},
      navbar: {
        title: 'HomeWizard Energy API',
        logo: {alt: 'HomeWizard Energy API home', src: 'img/logo.svg', width: 32, height: 32},
        items: [
          {type: 'doc', docId: 'introduction', label: 'Docs', position: 'left'},
          {to: '/docs/category/api-v1', label: 'API v1', position: 'left'},
          {to: '/docs/category/api-v2', label: 'API v2', position: 'left'},
          {href: COMPANY_URL, label: 'HomeWizard', position: 'right'},
        ],
      },
      footer: {
        style: 'dark',
        links: [
          {
            title: 'Docs',
            items: [
              {label: 'Introduction', to: '/docs/introduction'},
              {label: 'Changelog', to: '/docs/changelog'},
              {label: 'Source repository', href: REPO_URL},
            ],
          },
          {
            title: 'Community',
            items: [
              {label: 'LinkedIn', href: 'https://www.linkedin.com/company/homewizard'},
              {label: 'Instagram', href: 'https://www.instagram.com/homewizard'},
              {label: 'Facebook', href: 'https://www.facebook.com/HomeWizard'},
            ],
          },
          {
            title: 'About us',
            items: [
              {label: 'HomeWizard', href: COMPANY_URL},
              {label: 'Support helpdesk', href: HELPDESK_URL},
            ],
          },
        ],
        copyright: `Independent documentation of the HomeWizard Energy local API. Built with Docusaurus.`,
      },
      prism: {
        // Colours come from a stylesheet for both modes (plugins/code-blocks).
        theme: cssVariablePrismTheme,
        darkTheme: cssVariablePrismTheme,
        additionalLanguages: ['json', 'http', 'bash'],
      },
    } satisfies Preset.ThemeConfig,
  };
}
