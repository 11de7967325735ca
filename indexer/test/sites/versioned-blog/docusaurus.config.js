// Fixture site: versioned docs (current + 1.0), a blog with authors, a custom page, a category
// with a generated index (cards), trailingSlash left undefined (Docusaurus's default).
// Built by ../build.ts into html/ (committed); `npm test` reads only html/.
export default {
  title: 'Versioned Fixture',
  url: 'https://versioned.example.com',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  // Rspack and the SWC HTML minifier (which leaves `<` unescaped in attribute values).
  future: {v4: true, faster: true},
  i18n: {defaultLocale: 'en', locales: ['en']},
  presets: [
    [
      'classic',
      {
        docs: {sidebarPath: './sidebars.js', lastVersion: 'current', versions: {current: {label: 'Next'}}},
        blog: {showReadingTime: true, authorsMapPath: 'authors.yml'},
        theme: {},
      },
    ],
  ],
  themeConfig: {
    navbar: {
      title: 'Versioned',
      items: [
        {type: 'docSidebar', sidebarId: 'docs', label: 'Guides', position: 'left'},
        {to: '/blog', label: 'Journal', position: 'left'},
        {to: '/about', label: 'About us', position: 'left'},
        {type: 'docsVersionDropdown', position: 'right'},
      ],
    },
  },
};
