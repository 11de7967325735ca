/**
 * Loader for the browser build's copy of the generated site config: drops `ssrTemplate`.
 *
 * Docusaurus hands the whole site config to the browser (useDocusaurusContext), but the page
 * template is only read when pages are rendered at build time. Ours carries the script loader,
 * which no browser code reads.
 * The generated module is `export default <JSON>;`: anything else is passed through untouched.
 */
module.exports = function stripServerConfig(source) {
  const match = /^([\s\S]*?export default )(\{[\s\S]*\})(;?\s*)$/.exec(source);
  if (!match) return source;
  let config;
  try {
    config = JSON.parse(match[2]);
  } catch {
    return source;
  }
  delete config.ssrTemplate;
  return `${match[1]}${JSON.stringify(config)}${match[3]}`;
};
