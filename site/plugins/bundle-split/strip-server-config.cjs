/**
 * Loader for the browser build's copy of the generated site config: drops the fields only the
 * build reads.
 *
 * Docusaurus hands the whole site config to the browser (useDocusaurusContext), but some of it is
 * only read at build time: the page template (ours carries the script loader), the plugin, preset
 * and theme lists with their options (the code-blocks plugin's two colour themes alone are 2 KB),
 * the head tags written into each page, the Markdown options, the static folders and the broken
 * link settings. No browser code of Docusaurus, its themes, the search theme or the site reads
 * them (checked by searching their client and theme code for each name).
 * The generated module is `export default <JSON>;`: anything else is passed through untouched.
 */
const SERVER_ONLY = ['ssrTemplate', 'plugins', 'presets', 'themes', 'headTags', 'markdown', 'staticDirectories', 'onBrokenLinks', 'onBrokenAnchors', 'onBrokenMarkdownLinks', 'onDuplicateRoutes'];

module.exports = function stripServerConfig(source) {
  const match = /^([\s\S]*?export default )(\{[\s\S]*\})(;?\s*)$/.exec(source);
  if (!match) return source;
  let config;
  try {
    config = JSON.parse(match[2]);
  } catch {
    return source;
  }
  for (const field of SERVER_ONLY) delete config[field];
  return `${match[1]}${JSON.stringify(config)}${match[3]}`;
};
