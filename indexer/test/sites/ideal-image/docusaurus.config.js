// Fixture site: @docusaurus/plugin-ideal-image as its documentation sets it up: an image in a
// doc through `@theme/IdealImage`, resized at build time by sharp into several widths with a
// low-quality placeholder.
// trailingSlash left undefined. Built by ../build.ts into html/ (committed); `npm test` reads only html/.
export default {
  title: 'Ideal Image Fixture',
  url: 'https://images.example.com',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  // Rspack and the SWC HTML minifier (which leaves `<` unescaped in attribute values).
  future: {v4: true, faster: true},
  i18n: {defaultLocale: 'en', locales: ['en']},
  presets: [['classic', {docs: {sidebarPath: './sidebars.js'}, blog: false, theme: {}}]],
  plugins: [['@docusaurus/plugin-ideal-image', {quality: 70, max: 1030, min: 640, steps: 2, disableInDev: false}]],
  themeConfig: {
    navbar: {
      title: 'Images',
      items: [{type: 'docSidebar', sidebarId: 'docs', label: 'Guides', position: 'left'}],
    },
  },
};
