/**
 * Search benchmark: local index size (raw, gzip), load time and query time (median, p95) on the
 * real site's index and on a synthetic site cut to 1,000 pages.
 *
 *   node --import tsx bench/search.ts [--build site/build] [--pages 1000]
 *
 * Query time is one answer as the browser client gives it (ranking, then the highlights and
 * snippets the modal reads: group title, hit title, content snippet) for every prefix of every relevance query, as a reader types them. Targets: real site under
 * 100 KB gzip and p95 under 2 ms; 1,000 pages under 2 MB gzip and p95 under 10 ms.
 */
import {readFileSync} from 'node:fs';
import {join, resolve, dirname} from 'node:path';
import {fileURLToPath} from 'node:url';
import {gzipSync} from 'node:zlib';
import {performance} from 'node:perf_hooks';
import {loadavg} from 'node:os';
import {answerQuery, LocalSearchEngine, modalParams, unpackRecords, type AlgoliaResponse, type SearchRecord, type SearchRecord as EngineRecord} from 'docs-search';
import {serializeLocalIndex} from 'docs-indexer';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface SearchBenchStats {
  name: string;
  pages: number;
  records: number;
  rawBytes: number;
  gzipBytes: number;
  loadMs: number;
  queries: number;
  medianMs: number;
  p95Ms: number;
}

/** Every prefix of every relevance query (what the modal asks while a reader types). */
export function typedQueries(): string[] {
  const {queries} = JSON.parse(readFileSync(join(ROOT, 'site/search-eval/queries.json'), 'utf8')) as {queries: {q: string}[]};
  const out: string[] = [];
  for (const {q} of queries) for (let i = 1; i <= q.length; i++) out.push(q.slice(0, i));
  return out;
}

/** Reads what DocSearch renders per hit (group title, the hit's title or content snippet). */
export function readLikeModal(response: AlgoliaResponse): number {
  let chars = 0;
  for (const hit of response.hits) {
    const hl = hit._highlightResult as {hierarchy: Record<string, {value: string}>};
    const sn = hit._snippetResult as {hierarchy: Record<string, {value: string} | undefined>; content?: {value: string}};
    chars += hl.hierarchy.lvl0?.value.length ?? 0;
    const level = hit.type === 'content' ? undefined : hit.type;
    chars += (level && level !== 'lvl0' ? sn.hierarchy[level]?.value.length : sn.content?.value.length) ?? 0;
    chars += sn.hierarchy.lvl1?.value.length ?? 0;
  }
  return chars;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

export function measure(name: string, json: string, queries: string[]): SearchBenchStats {
  const t0 = performance.now();
  const engine = LocalSearchEngine.fromIndexFile(JSON.parse(json));
  const loadMs = performance.now() - t0;
  for (const q of queries.slice(0, 50)) readLikeModal(answerQuery(engine, 'bench', modalParams(q))); // warm up
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      const s = performance.now();
      readLikeModal(answerQuery(engine, 'bench', modalParams(q)));
      times.push(performance.now() - s);
    }
  }
  times.sort((a, b) => a - b);
  return {
    name,
    pages: new Set(engine.records.map((r) => r.url_without_anchor)).size,
    records: engine.records.length,
    rawBytes: Buffer.byteLength(json),
    gzipBytes: gzipSync(json).length,
    loadMs,
    queries: times.length,
    medianMs: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
  };
}

// ---------------------------------------------------------------------------------------------
// Synthetic site: the indexer's synthetic build (the real pages copied under copy-N/ folders)
// cut to 1,000 pages, as records: the real records repeated with copy-N/ URLs and fresh IDs.

function hexId(seed: string): string {
  let out = '';
  for (let round = 0; out.length < 24; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 24);
}

export function syntheticRecords(real: EngineRecord[], pages: number): SearchRecord[] {
  const byPage = new Map<string, EngineRecord[]>();
  for (const r of real) byPage.set(r.url_without_anchor, [...(byPage.get(r.url_without_anchor) ?? []), r]);
  const realPages = [...byPage.values()];
  const out: SearchRecord[] = [];
  for (let p = 0; p < pages; p++) {
    const copy = Math.floor(p / realPages.length);
    for (const r of realPages[p % realPages.length]!) {
      const move = (url: string) => {
        const u = new URL(url);
        return `${u.origin}/copy-${copy}${u.pathname}${u.hash}`;
      };
      out.push({
        ...r,
        objectID: hexId(`${r.objectID}/${copy}`),
        url: move(r.url),
        url_without_anchor: move(r.url_without_anchor),
        language: r.language,
        docusaurus_tag: r.docusaurus_tag,
      } as SearchRecord);
    }
  }
  return out;
}

export async function benchSearch(options: {buildDir?: string; pages?: number} = {}): Promise<SearchBenchStats[]> {
  const buildDir = resolve(options.buildDir ?? join(ROOT, 'site/build'));
  const realJson = readFileSync(join(buildDir, 'search/local-index.json'), 'utf8');
  const queries = typedQueries();
  const real = measure('real site', realJson, queries);
  const synthetic = syntheticRecords(unpackRecords(JSON.parse(realJson)), options.pages ?? 1000);
  const synth = measure(`synthetic ${options.pages ?? 1000} pages`, serializeLocalIndex(synthetic), queries);
  return [real, synth];
}

export function formatStats(s: SearchBenchStats): string {
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  return (
    `${s.name.padEnd(20)} ${String(s.pages).padStart(5)} pages ${String(s.records).padStart(6)} records  ` +
    `index ${kb(s.rawBytes).padStart(10)} raw ${kb(s.gzipBytes).padStart(9)} gzip  load ${s.loadMs.toFixed(0).padStart(4)} ms  ` +
    `query median ${s.medianMs.toFixed(3)} ms p95 ${s.p95Ms.toFixed(3)} ms (${s.queries} queries)`
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (n: string) => {
    const i = process.argv.indexOf(n);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  try {
    const stats = await benchSearch({buildDir: arg('--build'), pages: arg('--pages') ? Number(arg('--pages')) : undefined});
    console.log('Search (local index, minisearch engine)');
    for (const s of stats) console.log(`  ${formatStats(s)}`);
    console.log('  targets: real < 100 KB gzip, p95 < 2 ms; 1,000 pages < 2048 KB gzip, p95 < 10 ms');
    console.log(`  (wall-clock times; machine load average ${loadavg()[0]!.toFixed(1)} during the run)`);
  } catch (error) {
    process.stderr.write(`bench/search: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
