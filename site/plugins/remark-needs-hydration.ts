/**
 * Remark plugin: marks a doc whose MDX renders a component of its own in the browser, so that
 * src/server-article hydrates its article on a first visit instead of adopting the server's
 * markup (which would leave the component dead until the next navigation).
 *
 * Plain Markdown and the build-time components (expanded before this plugin runs, by
 * plugins/remark-api.ts) need no browser code of their own. Anything else written as JSX does,
 * and is found from the source, not from the markup it renders: an imported or provided component
 * (a capitalised name such as <Tabs>, a member such as <Foo.Bar>, a fragment), an import or
 * export of the page, and any lowercase element outside STATIC_ELEMENTS (<details>, which the
 * theme renders with its own Details component, <button>, <input>…). The mark is an empty hidden
 * element first in the article: `<div data-hydrate hidden>`.
 */
import {NEEDS_HYDRATION_ATTRIBUTE} from '../src/server-article/marker';

type Node = {type: string; name?: string | null; children?: Node[]; attributes?: unknown[]};

/** Lowercase JSX elements that render as plain, static HTML. */
const STATIC_ELEMENTS = new Set([
  'a', 'abbr', 'b', 'br', 'code', 'del', 'div', 'em', 'hr', 'i', 'img', 'kbd', 'li', 'ol', 'p', 'pre', 's', 'small',
  'span', 'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'u', 'ul', 'var',
]);

/** The first node of `tree` that needs the browser, if any. */
export function needsHydration(tree: Node): Node | undefined {
  if (tree.type === 'mdxjsEsm') return tree;
  if (tree.type === 'mdxJsxFlowElement' || tree.type === 'mdxJsxTextElement') {
    const name = tree.name;
    if (!name || !STATIC_ELEMENTS.has(name)) return tree;
  }
  for (const child of tree.children ?? []) {
    const found = needsHydration(child);
    if (found) return found;
  }
  return undefined;
}

export default function remarkNeedsHydration() {
  return (tree: unknown): void => {
    const root = tree as Node;
    if (!needsHydration(root)) return;
    root.children ??= [];
    root.children.unshift({
      type: 'mdxJsxFlowElement',
      name: 'div',
      attributes: [
        {type: 'mdxJsxAttribute', name: NEEDS_HYDRATION_ATTRIBUTE, value: null},
        {type: 'mdxJsxAttribute', name: 'hidden', value: null},
      ],
      children: [],
    });
  };
}
