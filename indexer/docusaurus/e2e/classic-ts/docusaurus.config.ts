// A fresh site in the shape of `npx create-docusaurus@latest my-site classic --typescript`
// (TypeScript config, docs, blog, a home page), trimmed to what the search tests read, with the
// one line that adds the search theme. Built by ../fixtures.setup.ts.
import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';

const config: Config = {
  title: 'My Site',
  tagline: 'Dinosaurs are cool',
  url: 'https://your-docusaurus-site.example.com',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  future: {v4: true, faster: true},
  i18n: {defaultLocale: 'en', locales: ['en']},
  presets: [
    [
      'classic',
      {
        docs: {sidebarPath: './sidebars.ts'},
        blog: {showReadingTime: true, onInlineAuthors: 'ignore', onUntruncatedBlogPosts: 'ignore'},
        theme: {},
      } satisfies Preset.Options,
    ],
  ],
  themes: ['docusaurus-theme-docs-search'],
  themeConfig: {
    navbar: {
      title: 'My Site',
      items: [
        {type: 'docSidebar', sidebarId: 'tutorialSidebar', position: 'left', label: 'Tutorial'},
        {to: '/blog', label: 'Blog', position: 'left'},
      ],
    },
  } satisfies Preset.ThemeConfig,
};

export default config;
