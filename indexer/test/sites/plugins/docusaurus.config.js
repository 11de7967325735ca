// Fixture site: the plugins most Docusaurus sites add beside the classic preset.
// - @docusaurus/plugin-client-redirects: several old paths redirect to one page (one of them,
//   /docs/a-first-steps, sorts before its target /docs/intro), and others to other pages;
// - a second docs instance (`community`, at /community);
// - an unlisted doc (built, marked noindex, left out of the sitemap) and a draft doc (not built);
// - the sitemap (the preset's).
// trailingSlash left undefined. Built by ../build.ts into html/ (committed); `npm test` reads only html/.
export default {
  title: 'Plugins Fixture',
  url: 'https://plugins.example.com',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  // Rspack and the SWC HTML minifier (which leaves `<` unescaped in attribute values).
  future: {v4: true, faster: true},
  i18n: {defaultLocale: 'en', locales: ['en']},
  presets: [['classic', {docs: {sidebarPath: './sidebars.js'}, blog: false, theme: {}}]],
  plugins: [
    ['@docusaurus/plugin-content-docs', {id: 'community', path: 'community', routeBasePath: 'community', sidebarPath: false}],
    [
      '@docusaurus/plugin-client-redirects',
      {
        redirects: [
          {to: '/docs/intro', from: ['/docs/getting-started-old', '/docs/a-first-steps', '/start']},
          {to: '/docs/guide/install', from: '/docs/guide/setup-old'},
          {to: '/community/support', from: '/help'},
        ],
      },
    ],
  ],
  themeConfig: {
    navbar: {
      title: 'Plugins',
      items: [
        {type: 'docSidebar', sidebarId: 'docs', label: 'Guides', position: 'left'},
        {to: '/community', label: 'Community', position: 'left', activeBaseRegex: '^/community'},
      ],
    },
  },
};
