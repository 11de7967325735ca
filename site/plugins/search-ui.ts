/**
 * Build-time wiring of the search UI (src/search/, src/theme/SearchBar, src/theme/SearchPage).
 *
 * 1. Docusaurus's /search page imports `liteClient` from `algoliasearch/lite` and cannot be given
 *    another client, so that import resolves to src/search/liteClient.ts, which returns the local
 *    client in local mode and Algolia's client otherwise. The alias is the same in both modes on
 *    purpose (see liteClient.ts). The modal gets its client through DocSearch's
 *    `transformSearchClient` (src/search/SearchModal.tsx).
 * 2. patches/ edits DocSearch's bundle so the error screen can show, and the stock /search page so
 *    it always has one <main> landmark. Rspack's persistent cache treats node_modules as immutable
 *    (keyed by package version), so a build after applying or losing a patch would silently reuse
 *    the other variant: the cache version gets a hash of the patched files, so the cache is rebuilt
 *    whenever one of them changes.
 */
import {createHash} from 'node:crypto';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

interface PersistentCache {
  type: 'persistent';
  version?: string;
}

export default function searchUi(context: LoadContext): Plugin {
  const require = createRequire(path.join(context.siteDir, 'package.json'));
  const patchedFiles = [
    path.join(path.dirname(require.resolve('@docsearch/react/package.json')), 'dist/esm/index.js'),
    // The package's "exports" hide package.json: resolve its main entry (lib/index.js) instead.
    path.join(path.dirname(require.resolve('@docusaurus/theme-search-algolia')), 'theme/SearchPage/index.js'),
  ];
  const hash = createHash('sha256');
  for (const file of patchedFiles) hash.update(readFileSync(file));
  const patchesHash = hash.digest('hex').slice(0, 12);
  return {
    name: 'search-ui',
    configureWebpack(config) {
      const cache = (config as {experiments?: {cache?: unknown}}).experiments?.cache as PersistentCache | undefined;
      return {
        resolve: {
          alias: {'algoliasearch/lite$': path.join(context.siteDir, 'src/search/liteClient.ts')},
        },
        ...(cache?.type === 'persistent'
          ? {experiments: {cache: {...cache, version: `${cache.version ?? ''}-patches-${patchesHash}`}}}
          : {}),
      };
    },
  };
}
