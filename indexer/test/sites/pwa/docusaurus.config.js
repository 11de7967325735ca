// Fixture site: @docusaurus/plugin-pwa as its documentation sets it up (a web app manifest, the
// head tags, offline mode when installed, in standalone display or with ?offlineMode=true).
// The build holds the service worker (sw.js) and the manifest beside the pages; both are kept
// in html/ so that a URL crawl of the fixture can find them if it looks.
// trailingSlash left undefined. Built by ../build.ts into html/ (committed); `npm test` reads only html/.
export default {
  title: 'PWA Fixture',
  url: 'https://pwa.example.com',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  // Rspack and the SWC HTML minifier (which leaves `<` unescaped in attribute values).
  future: {v4: true, faster: true},
  i18n: {defaultLocale: 'en', locales: ['en']},
  presets: [['classic', {docs: {sidebarPath: './sidebars.js'}, blog: false, theme: {}}]],
  plugins: [
    [
      '@docusaurus/plugin-pwa',
      {
        offlineModeActivationStrategies: ['appInstalled', 'standalone', 'queryString'],
        pwaHead: [
          {tagName: 'link', rel: 'manifest', href: '/manifest.json'},
          {tagName: 'meta', name: 'theme-color', content: 'rgb(37, 194, 160)'},
          {tagName: 'meta', name: 'apple-mobile-web-app-capable', content: 'yes'},
          {tagName: 'meta', name: 'apple-mobile-web-app-status-bar-style', content: '#000'},
        ],
      },
    ],
  ],
  themeConfig: {
    navbar: {
      title: 'PWA',
      items: [{type: 'docSidebar', sidebarId: 'docs', label: 'Guides', position: 'left'}],
    },
  },
};
