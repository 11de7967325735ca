/**
 * route-scripts (plugins/ssr-template.ts) reads the generated route tree: a format it does not
 * read whole fails the build instead of leaving pages without their route chunks.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {routeTree} from '../plugins/ssr-template';

const TREE = `import React from 'react';
import ComponentCreator from '@docusaurus/ComponentCreator';

export default [
  {
    path: '/docs',
    component: ComponentCreator('/docs', '7b4'),
    routes: [
      {
        path: '/docs/introduction',
        component: ComponentCreator('/docs/introduction', '3c5'),
        exact: true,
        sidebar: "docs"
      },
    ]
  },
  {
    path: '*',
    component: ComponentCreator('*'),
  },
];
`;

test('reads every route of the generated tree, the not-found route aside', () => {
  assert.deepEqual(routeTree(TREE), [
    {path: '/docs', hash: '7b4', exact: false},
    {path: '/docs/introduction', hash: '3c5', exact: true},
  ]);
});

test('a route it cannot read fails the build', () => {
  const changed = TREE.replace("component: ComponentCreator('/docs/introduction', '3c5'),\n        exact: true,", "exact: true,\n        component: ComponentCreator('/docs/introduction', '3c5'),");
  assert.throws(() => routeTree(changed), /route-scripts: read 1 of the 2 routes of \.docusaurus\/routes\.js/);
  assert.throws(() => routeTree(''), /route-scripts: read 0 of the 0 routes/);
});
