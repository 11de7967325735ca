// Fixture site: two locales (en, fr), baseUrl below the root, trailingSlash false, a blog.
// Built by ../build.ts into html/ (committed); `npm test` reads only html/.
export default {
  title: 'Locales Fixture',
  url: 'https://locales.example.com',
  baseUrl: '/docs-site/',
  trailingSlash: false,
  onBrokenLinks: 'throw',
  // Rspack and the SWC HTML minifier (which leaves `<` unescaped in attribute values).
  future: {v4: true, faster: true},
  i18n: {defaultLocale: 'en', locales: ['en', 'fr']},
  presets: [['classic', {docs: {sidebarPath: './sidebars.js'}, blog: {showReadingTime: true}, theme: {}}]],
  themeConfig: {
    navbar: {
      title: 'Locales',
      items: [
        {type: 'docSidebar', sidebarId: 'docs', label: 'Docs', position: 'left'},
        {to: '/blog', label: 'News', position: 'left'},
        {type: 'localeDropdown', position: 'right'},
      ],
    },
  },
};
