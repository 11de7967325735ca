// Fixture site: docs served at the site root (routeBasePath '/'), no blog, trailingSlash true.
// Built by ../build.ts into html/ (committed); `npm test` reads only html/.
export default {
  title: 'Root Docs Fixture',
  url: 'https://root.example.com',
  baseUrl: '/',
  trailingSlash: true,
  onBrokenLinks: 'throw',
  // Rspack and the SWC HTML minifier (which leaves `<` unescaped in attribute values).
  future: {v4: true, faster: true},
  i18n: {defaultLocale: 'en', locales: ['en']},
  presets: [['classic', {docs: {routeBasePath: '/', sidebarPath: './sidebars.js'}, blog: false, theme: {}}]],
  themeConfig: {navbar: {title: 'Root', items: [{type: 'docSidebar', sidebarId: 'docs', label: 'Manual', position: 'left'}]}},
};
