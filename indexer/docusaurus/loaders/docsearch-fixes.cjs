/**
 * Webpack/Rspack loader for the bundle of @docsearch/react 3.9.0 (dist/esm/index.js), which this
 * theme pins: fixes the search modal needs, applied when the site is bundled instead of by
 * editing the installed package. Each fix replaces one exact piece of the minified bundle; a piece
 * that is not there (another DocSearch build, or a copy patched already) is left alone with a
 * build warning naming the fix.
 */
const FIXES = [
  // The "Unable to fetch results" screen can show: @algolia/autocomplete-core (bundled) ends every
  // request with `.finally(() => setStatus('idle'))`, which overwrote the `error` status DocSearch
  // sets on a RetryError, so the screen never rendered (spec sections 2, 4 and 8).
  ["errorScreen", "unction(){p(\"idle\"),", "unction(){\"error\"!==c.getState().status&&p(\"idle\"),"],
  // `aria-controls` of the combobox names only the result lists that exist (axe: aria-valid-attr-value).
  ["rootAriaControls", "ols\":n.getState().isOpen?n.getState().collections.map((function(e){var r=e.source;return we(t.id,\"list\",r)})).join(\" \"):void 0,\"aria-labelledby\":we(t.id,\"label\")},e)},ge", "ols\":n.getState().isOpen?n.getState().collections.filter((function(e){return e.items.length>0})).map((function(e){var r=e.source;return we(t.id,\"list\",r)})).join(\" \")||void 0:void 0,\"aria-labelledby\":we(t.id,\"label\")},e)},ge"],
  // The same for the search input.
  ["inputAriaControls", "ols\":n.getState().isOpen?n.getState().collections.map((function(e){var r=e.source;return we(t.id,\"list\",r)})).join(\" \"):void 0,\"aria-labelledby\":we(t.id,\"label\"),value:n", "ols\":n.getState().isOpen?n.getState().collections.filter((function(e){return e.items.length>0})).map((function(e){var r=e.source;return we(t.id,\"list\",r)})).join(\" \")||void 0:void 0,\"aria-labelledby\":we(t.id,\"label\"),value:n"],
  // Each result list gets the id that `aria-controls` names.
  ["listSource", "ListProps(),t.collec", "ListProps({source:t.collection.source}),t.collec"],
  // The modal, not its backdrop, is the dialog, named by the placeholder (so in the site's locale);
  // the backdrop is no button, and the search bar is no <header> landmark inside the dialog.
  ["dialog", "m({ref:F},re({\"aria-expanded\":!0}),{className:[\"DocSearch\",\"DocSearch-Container\",\"stalled\"===H.status&&\"DocSearch-Container--Stalled\",\"error\"===H.status&&\"DocSearch-Container--Errored\"].filter(Boolean).join(\" \"),role:\"button\",tabIndex:0,onMouseDown:function(e){e.target===e.currentTarget&&s()}}),e.createElement(\"div\",{className:\"DocSearch-Modal\",ref:U},e.createElement(\"header\",{classNa", "m({ref:F},{className:[\"DocSearch\",\"DocSearch-Container\",\"stalled\"===H.status&&\"DocSearch-Container--Stalled\",\"error\"===H.status&&\"DocSearch-Container--Errored\"].filter(Boolean).join(\" \"),onMouseDown:function(e){e.target===e.currentTarget&&s()}}),e.createElement(\"div\",{className:\"DocSearch-Modal\",ref:U,role:\"dialog\",\"aria-modal\":\"true\",\"aria-label\":a},e.createElement(\"div\",{classNa"],
  // The modal's footer is no <footer> landmark inside the dialog.
  ["footer", "eElement(\"footer\",{classNa", "eElement(\"div\",{classNa"],
];

module.exports = function docsearchFixes(source) {
  let fixed = source;
  for (const [name, from, to] of FIXES) {
    if (fixed.includes(from)) fixed = fixed.replace(from, () => to);
    else if (!fixed.includes(to)) this.emitWarning(new Error(`docusaurus-theme-docs-search: DocSearch fix "${name}" not applied: @docsearch/react is not the 3.9.0 bundle it was written for`));
  }
  return fixed;
};

module.exports.FIXES = FIXES;
