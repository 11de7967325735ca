/**
 * Local search mode for Docusaurus's /search page: the page imports `liteClient` from
 * `algoliasearch/lite` and cannot be given another client, so in local mode that import
 * resolves to src/search/localLiteClient.ts, which returns the local client. The modal gets
 * its client through DocSearch's `transformSearchClient` instead (src/search/SearchModal.tsx).
 */
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

export default function searchClientAlias(context: LoadContext): Plugin {
  return {
    name: 'search-client-alias',
    configureWebpack() {
      if (context.siteConfig.customFields?.searchMode !== 'local') return {};
      return {
        resolve: {
          alias: {'algoliasearch/lite$': path.join(context.siteDir, 'src/search/localLiteClient.ts')},
        },
      };
    },
  };
}
