/**
 * Search benchmark: local index size (raw, gzip), load time and query time (median, p95) on the
 * real site's index and on a synthetic site cut to 1,000 pages.
 *
 *   node --import tsx bench/search.ts [--build site/build] [--pages 1000]
 *
 * Query time is one full answer as the browser client gives it (ranking, highlight, snippets)
 * for every prefix of every relevance query, as a reader types them. Targets: real site under
 * 100 KB gzip and p95 under 2 ms; 1,000 pages under 2 MB gzip and p95 under 10 ms.
 */
import {readFileSync} from 'node:fs';
import {join, resolve, dirname} from 'node:path';
import {fileURLToPath} from 'node:url';
import {gzipSync} from 'node:zlib';
import {performance} from 'node:perf_hooks';
import {answerQuery, LocalSearchEngine, modalParams, unpackRecords, type EngineRecord} from '../indexer/src/local-engine.ts';
import {serializeLocalIndex} from '../indexer/src/publish-local.ts';
import type {SearchRecord} from '../indexer/src/records.ts';

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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

export function measure(name: string, json: string, queries: string[]): SearchBenchStats {
  const t0 = performance.now();
  const engine = LocalSearchEngine.fromIndexFile(JSON.parse(json));
  const loadMs = performance.now() - t0;
  for (const q of queries.slice(0, 50)) answerQuery(engine, 'bench', modalParams(q)); // warm up
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      const s = performance.now();
      answerQuery(engine, 'bench', modalParams(q));
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
// Synthetic site: 1,000 pages shaped like ours (title, 6 sections, 4 paragraphs of ~30 words,
// field names and error codes), words drawn from the real index's vocabulary (Zipf-like).

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXTRA_WORDS =
  'device meter energy power voltage current frequency phase tariff import export total average peak socket battery water gas telegram request response header token user field value unit watt kilowatt hour second timestamp firmware version serial product network wifi strength signal cloud system reboot identify state switch lock brightness led mode charge discharge permission standby target production consumption measurement endpoint json http https certificate error code status unauthorized forbidden payload subscribe message websocket discovery mdns service hostname address local api client library example poll interval limit rate'.split(
    ' ',
  );

export function syntheticRecords(real: EngineRecord[], pages: number, origin = 'https://docs.example.org'): SearchRecord[] {
  const rand = rng(42);
  const vocab = [...new Set([...real.flatMap((r) => (r.content ?? '').toLowerCase().match(/[a-z]{3,}/g) ?? []), ...EXTRA_WORDS])];
  const word = () => vocab[Math.floor(Math.pow(rand(), 2.2) * vocab.length)]!;
  const ident = () => `${word()}_${word()}_${['w', 'v', 'a', 'kwh', 'hz', 'pct'][Math.floor(rand() * 6)]}`;
  const sentence = (n: number) => Array.from({length: n}, () => (rand() < 0.06 ? ident() : word())).join(' ');
  const titleCase = (s: string) => s.replace(/\b\w/g, (c) => c.toUpperCase());
  const out: SearchRecord[] = [];
  for (let p = 0; p < pages; p++) {
    const lvl0 = `Section ${p % 12}`;
    const lvl1 = `${titleCase(sentence(2))} ${p}`;
    const path = `/docs/synthetic/page-${p}`;
    let position = 0;
    const base = {language: 'en', docusaurus_tag: 'docs-default-current', version: 'current'};
    const h = {lvl0, lvl1, lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null};
    const url = `${origin}${path}`;
    out.push({...base, objectID: `${path}::lvl1`, url, url_without_anchor: url, anchor: null, type: 'lvl1', hierarchy: h, content: null, weight: {pageRank: 0, level: 90, position: position++}});
    out.push({...base, objectID: `${path}::intro`, url, url_without_anchor: url, anchor: null, type: 'content', hierarchy: h, content: sentence(25), weight: {pageRank: 0, level: 0, position: position++}});
    for (let s = 0; s < 6; s++) {
      const lvl2 = titleCase(sentence(3));
      const anchor = `section-${s}`;
      const hh = {...h, lvl2};
      const aurl = `${url}#${anchor}`;
      out.push({...base, objectID: `${path}::${anchor}`, url: aurl, url_without_anchor: url, anchor, type: 'lvl2', hierarchy: hh, content: null, weight: {pageRank: 0, level: 80, position: position++}});
      for (let c = 0; c < 4; c++) {
        out.push({...base, objectID: `${path}::${anchor}::${c}`, url: aurl, url_without_anchor: url, anchor, type: 'content', hierarchy: hh, content: `${sentence(30)}.`, weight: {pageRank: 0, level: 0, position: position++}});
      }
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
  } catch (error) {
    process.stderr.write(`bench/search: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
