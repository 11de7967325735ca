/**
 * What the DocSearch 3.9 modal's markup says to assistive technology, corrected after each of its
 * renders (axe with every rule passes on the open modal):
 * - the modal, not its backdrop, is the dialog, named by the placeholder (the site's locale): the
 *   backdrop (`.DocSearch-Container`) carried the combobox's root props and `role="button"`;
 * - the search bar's <header> and the footer are no banner/contentinfo landmarks inside the dialog;
 * - each result list gets the id autocomplete-core meant for it (`<id>-<source>-list`; DocSearch
 *   renders every list with the same `<id>-list`), and `aria-controls` names only the lists that
 *   exist (autocomplete names one per source, empty ones included).
 *
 * A MutationObserver makes the corrections right after React commits (its callbacks run before the
 * browser paints): React writes an attribute again only when the prop's value changes, and each
 * correction is made only where the DOM differs from it, so the two never fight. No edit of
 * DocSearch's bundle: a DocSearch whose markup already says these things is left as it is.
 */

/** The root props autocomplete gives DocSearch's backdrop, which is no widget. */
const BACKDROP_ATTRIBUTES = ['role', 'tabindex', 'aria-expanded', 'aria-haspopup', 'aria-controls', 'aria-owns', 'aria-labelledby'];

function setAttribute(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function removeAttribute(element: Element, name: string): void {
  if (element.hasAttribute(name)) element.removeAttribute(name);
}

/** Applies every correction to the modal inside `root`; `label` names the dialog. */
export function correctModalSemantics(root: ParentNode, label: string): void {
  const backdrop = root.querySelector('.DocSearch-Container');
  if (backdrop) for (const name of BACKDROP_ATTRIBUTES) removeAttribute(backdrop, name);

  const modal = root.querySelector('.DocSearch-Modal');
  if (modal) {
    setAttribute(modal, 'role', 'dialog');
    setAttribute(modal, 'aria-modal', 'true');
    setAttribute(modal, 'aria-label', label);
  }
  // No landmarks inside the dialog (ARIA in HTML allows role=none on both).
  for (const landmark of root.querySelectorAll('.DocSearch-Modal header, .DocSearch-Modal footer')) setAttribute(landmark, 'role', 'none');

  // A list's id from its options' ids: `<id>-<source>-item-<n>` -> `<id>-<source>-list`.
  for (const list of root.querySelectorAll('[role="listbox"]')) {
    const option = list.querySelector('[role="option"][id]');
    const id = option?.id.replace(/-item-\d+$/, '-list');
    if (id && id !== option?.id) setAttribute(list, 'id', id);
  }
  const document = (root as Node).ownerDocument ?? (root as Document);
  for (const element of root.querySelectorAll('[aria-controls]')) {
    const ids = element.getAttribute('aria-controls')!.split(/\s+/).filter((id) => id && document.getElementById(id));
    if (ids.length > 0) setAttribute(element, 'aria-controls', ids.join(' '));
    else removeAttribute(element, 'aria-controls');
  }
}

/** Keeps the modal inside `root` corrected until the returned function is called. */
export function watchModalSemantics(root: HTMLElement, label: string): () => void {
  correctModalSemantics(root, label);
  const observer = new MutationObserver(() => correctModalSemantics(root, label));
  observer.observe(root, {subtree: true, childList: true, attributes: true, attributeFilter: [...BACKDROP_ATTRIBUTES, 'id', 'aria-label', 'aria-modal']});
  return () => observer.disconnect();
}
