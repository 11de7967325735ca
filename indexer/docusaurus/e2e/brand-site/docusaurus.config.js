// A site with its own brand colours (src/css/custom.css), in the shape of a site made with
// Docusaurus 3.0's `create-docusaurus classic` (JavaScript config), with the theme's one line.
// fixtures.setup.ts copies the classic site's docs, blog and home page beside it and builds it
// with the oldest Docusaurus the theme serves, pinned exactly, and React 18.
export default {
  title: 'Brand Site',
  tagline: 'Colours of its own',
  url: 'https://brand-site.example.com',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  i18n: {defaultLocale: 'en', locales: ['en']},
  presets: [
    [
      'classic',
      {
        docs: {sidebarPath: './sidebars.js'},
        blog: {showReadingTime: true},
        theme: {customCss: './src/css/custom.css'},
      },
    ],
  ],
  themes: ['docusaurus-theme-docs-search'],
  themeConfig: {
    navbar: {
      title: 'Brand Site',
      items: [
        {type: 'docSidebar', sidebarId: 'tutorialSidebar', position: 'left', label: 'Tutorial'},
        {to: '/blog', label: 'Blog', position: 'left'},
      ],
    },
  },
};
