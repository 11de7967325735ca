/**
 * plugins/remark-needs-hydration.ts: a doc whose MDX has a component for the browser is marked
 * (src/server-article then hydrates its article); plain Markdown and static HTML are not.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {unified} from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkNeedsHydration, {needsHydration} from '../plugins/remark-needs-hydration';

const tree = (mdx: string) => unified().use(remarkParse).use(remarkMdx).parse(mdx) as Parameters<typeof needsHydration>[0];

test('marks MDX with a component of its own, an import, or an interactive element', () => {
  for (const mdx of [
    'Click: <Counter />',
    "import Tabs from '@theme/Tabs';\n\nText",
    '<Tabs>\n<TabItem value="a">A</TabItem>\n</Tabs>',
    '<details>\n<summary>More</summary>\n\nHidden text\n\n</details>',
    'A <button>press</button> in a paragraph',
    '<Foo.Bar />',
    '<>fragment</>',
  ]) {
    assert.ok(needsHydration(tree(mdx)), mdx);
  }
});

test('leaves plain Markdown and static HTML alone', () => {
  for (const mdx of ['# Title\n\nText with `code`, a [link](/docs/x) and **bold**.', '| a | b |\n|---|---|\n| 1<br/>2 | <code>x</code> |', '```json\n{"a": 1}\n```']) {
    assert.equal(needsHydration(tree(mdx)), undefined, mdx);
  }
});

test('the mark is an empty hidden element first in the doc', () => {
  const root = tree('Click: <Counter />');
  remarkNeedsHydration()(root);
  assert.deepEqual(root.children![0], {
    type: 'mdxJsxFlowElement',
    name: 'div',
    attributes: [
      {type: 'mdxJsxAttribute', name: 'data-hydrate', value: null},
      {type: 'mdxJsxAttribute', name: 'hidden', value: null},
    ],
    children: [],
  });
});
