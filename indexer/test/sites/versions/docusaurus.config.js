// Fixture site: versioned docs as most versioned sites have them.
// - 2.0, the latest released version, at /docs (the default lastVersion: the first of versions.json);
// - the current docs, unreleased, at /docs/next with the "unreleased" banner;
// - 1.0, at /docs/1.0, an older version: Docusaurus shows its unmaintained-version banner there;
// - docs tags, so each version has a tags page and a page per tag.
// trailingSlash left undefined. Built by ../build.ts into html/ (committed); `npm test` reads only html/.
export default {
  title: 'Versions Fixture',
  url: 'https://versions.example.com',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  // Rspack and the SWC HTML minifier (which leaves `<` unescaped in attribute values).
  future: {v4: true, faster: true},
  i18n: {defaultLocale: 'en', locales: ['en']},
  presets: [['classic', {docs: {sidebarPath: './sidebars.js', onInlineTags: 'ignore'}, blog: false, theme: {}}]],
  themeConfig: {
    navbar: {
      title: 'Versions',
      items: [
        {type: 'docSidebar', sidebarId: 'docs', label: 'Guides', position: 'left'},
        {type: 'docsVersionDropdown', position: 'right'},
      ],
    },
  },
};
