/**
 * Docusaurus plugin: after the build, crawls the built HTML with the indexer's own extractor
 * (one extractor, one record schema for Algolia and local search) and writes the local search
 * index into the build (`search/local-index.json`; above a few hundred pages a sharded index: that
 * file is its manifest, the shards are in `search/local-index/`), printing its size. Cheap (well
 * under a second for this site), so it runs in both search modes; only local mode fetches it.
 */
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {crawl, formatKB, readSynonymsFile, writeLocalIndex} from 'docs-indexer';
import {LOCAL_INDEX_PATH} from 'docs-search';

export default function localSearchPlugin(context: LoadContext): Plugin {
  return {
    name: 'local-search',
    async postBuild({outDir}) {
      const started = performance.now();
      const siteUrl = new URL(context.baseUrl, context.siteConfig.url).href;
      const {records, pages} = await crawl(outDir, {baseUrl: siteUrl});
      const stats = await writeLocalIndex(records, path.join(outDir, LOCAL_INDEX_PATH), {synonyms: await readSynonymsFile(path.join(context.siteDir, 'search-synonyms.json'))});
      const ms = Math.round(performance.now() - started);
      const shards = stats.shards
        ? `, sharded: manifest ${formatKB(stats.bytes)} (${formatKB(stats.gzipBytes)} gzip) + ${stats.shards.files} files ` +
          `${formatKB(stats.shards.bytes)} (${formatKB(stats.shards.gzipBytes)} gzip)`
        : ` ${formatKB(stats.bytes)} (${formatKB(stats.gzipBytes)} gzip)`;
      console.log(`[local-search] ${LOCAL_INDEX_PATH}: ${pages} pages, ${stats.records} records,${shards} in ${ms} ms`);
    },
  };
}
