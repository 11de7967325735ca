/**
 * Search relevance: runs every query of site/search-eval/queries.json (and of the shared set
 * beside the repository, ../shared/search-eval/queries.json, when it is there) and prints, for
 * each set apart, MRR@10 and how many queries are answered at rank 1 and within 5 (a query is
 * answered at rank k when the k-th hit shown links to one of its pages, anchors ignored).
 *
 *   npm run search:eval                 # through the real DocSearch modal in Chromium
 *   npm run search:eval -- --engine     # through the local engine directly (fast iteration)
 *   options: --build DIR (default site/build), --port N (default E2E_PORT or 3014), --verbose,
 *            --shared FILE (another query file, reported as the set "shared"; `--shared none` skips it),
 *            --no-known (skip the generated known-item sets, see known-items.ts),
 *            --synonyms FILE (engine mode: answer with this synonym list instead of the index's),
 *            --format one-file|sharded (engine mode: the build's records in that index format),
 *            --without RULE[,RULE] (engine mode: the ranking with these rules switched off, see
 *            docs-search's RULE_NAMES and its README's ablation table),
 *            --grow N (engine mode: the site plus N synthetic pages of made-up words),
 *            --typed (engine mode: also every typed prefix of each query, each set's figures over
 *            its prefixes: what the modal shows while the query is typed)
 *
 * Both modes read the built site (`npm run build` first). The engine mode asks what the modal
 * sends (a question longer than the modal's input, 64 characters, as its start: modalParams) and
 * orders hits as the modal shows them: grouped by lvl0 (at most 5 per group), then by lvl1 inside
 * a group. Both modes give the same figures.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {answerQuery, createLocalSearchClient, isShardManifest, LocalSearchEngine, modalOrder, modalParams, SHARD_DIR, switchOff, type AlgoliaHit, type SearchRecord, type Synonym} from 'docs-search';
import {knownItems} from './known-items.ts';
import {buildShards, engineFromShards} from 'docs-search/shards';

const HERE = dirname(fileURLToPath(import.meta.url));
const SITE = resolve(HERE, '..');

export interface EvalQuery {
  q: string;
  pages: string[];
  /**
   * `forms`: typos, word forms and long questions; `typos`: one typo in a word of
   * 5 letters or more (its kind in `typo`, the word as the site spells it in `word`); `real`: integrators' questions
   * from public issue trackers; `shared`: the shared file's queries; absent: the base set.
   */
  set?: string;
  /** Where the question was asked (the `real` set). */
  source?: string;
  /**
   * The `real` set's half (issue 37): `tuning` (ranking changes are made looking at these) or
   * `test` (kept apart: printed, never tuned on).
   */
  split?: 'tuning' | 'test';
  /**
   * The issue that added a question after the split (37: the test half's new questions; `37b`:
   * the tuning half's new questions, found after the test half's sources and none of them; `37c`:
   * more of those, from issue 37's second round; `37d`: 25 more, from its third round).
   */
  issue?: number | string;
  /** The `typos` set: the kind of typo (`missing`, `extra`, `swapped`, `wrong`) and the word it is made in. */
  typo?: 'missing' | 'extra' | 'swapped' | 'wrong';
  word?: string;
  /** Known items (identifiers, headings): the sections (`/docs/x#anchor`) that answer, not just pages. */
  anchors?: string[];
}

/**
 * The named sets of queries.json, in order: `base` (no `set` field) first. A set with a split is
 * reported as its halves (`real:tuning`, `real:test`), and again as the questions of the issue
 * that made it (`real:issue-28`, before the split's new questions) and each later issue's
 * (`real:issue-37`), so every number stays comparable with the one before.
 */
export function querySets(queries: EvalQuery[]): Map<string, EvalQuery[]> {
  const sets = new Map<string, EvalQuery[]>([['base', []]]);
  const add = (name: string, q: EvalQuery) => sets.set(name, [...(sets.get(name) ?? []), q]);
  for (const q of queries) {
    const name = q.set ?? 'base';
    if (!q.split) {
      add(name, q);
      continue;
    }
    add(`${name}:${q.split}`, q);
  }
  for (const q of queries) if (q.split) add(`${q.set}:issue-${q.issue ?? 28}`, q);
  return sets;
}

/** The summary of each set, from one summary of every query (results are in query order). */
export function splitSummary(queries: EvalQuery[], all: EvalSummary): [string, EvalSummary][] {
  const out: [string, EvalSummary][] = [];
  for (const [name, list] of querySets(queries)) {
    const wanted = new Set(list);
    out.push([name, finish(all.results.filter((_, i) => wanted.has(queries[i]!)))]);
  }
  return out;
}
export interface EvalResult {
  q: string;
  rank: number | null;
  shown: string[];
}
export interface EvalSummary {
  results: EvalResult[];
  mrr10: number;
  at1: number;
  at5: number;
  total: number;
}

export function loadQueries(file = join(SITE, 'search-eval/queries.json')): EvalQuery[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as {queries: EvalQuery[]}).queries;
}

/** The shared query set kept beside the repository (absent on a fresh clone). */
export const SHARED_QUERIES = resolve(SITE, '../../shared/search-eval/queries.json');

/** The queries of another file as the set `name` (none when the file is not there). */
export function loadSet(file: string, name: string): EvalQuery[] {
  if (!existsSync(file)) return [];
  return loadQueries(file).map((q) => ({...q, set: name}));
}

/** `/docs/x#a` or `https://host/docs/x/` → `/docs/x`. */
export function pagePath(href: string): string {
  const url = new URL(href, 'http://local.invalid');
  return url.pathname.replace(/\/+$/, '') || '/';
}

/** `https://host/docs/x/#a` → `/docs/x#a` (a hit's section). */
export function sectionPath(href: string): string {
  const url = new URL(href, 'http://local.invalid');
  return pagePath(href) + url.hash;
}

/** Rank (1..10) of the first hit on one of `pages` (or, given `anchors`, on one of those sections). */
export function rankOf(shown: string[], pages: string[], anchors?: string[]): number | null {
  const idx = shown.slice(0, 10).findIndex((s) => (anchors ? anchors.includes(s) : pages.includes(s.split('#')[0]!)));
  return idx < 0 ? null : idx + 1;
}

export function summarize(queries: EvalQuery[], shownFor: (q: string) => string[]): EvalSummary {
  const results = queries.map(({q, pages, anchors}) => {
    const shown = shownFor(q);
    return {q, rank: rankOf(shown, pages, anchors), shown};
  });
  return finish(results);
}

/**
 * Every typed prefix of each query (`a`, `ac`, … `active power`), with the query's pages: the
 * modal answers at each keystroke, so the rules that act only while a word is being typed are
 * measured on these.
 */
export function typedPrefixes(queries: EvalQuery[]): EvalQuery[] {
  return queries.flatMap((q) => Array.from({length: q.q.length}, (_, i) => ({...q, q: q.q.slice(0, i + 1)})));
}

/** mulberry32: the seeded generator the real set's split was made with (issue 37). */
export function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The 95 % interval of a set's MRR@10 under resampling (a percentile bootstrap over its queries,
 * seeded: the same figures run after run): how far the set's figure moves with which questions
 * it happens to hold. A change smaller than that is no evidence either way.
 */
export function bootstrapInterval(reciprocalRanks: readonly number[], rounds = 2000, seed = 37): [number, number] {
  const n = reciprocalRanks.length;
  if (n === 0) return [0, 0];
  const random = mulberry32(seed);
  const means = new Float64Array(rounds);
  for (let b = 0; b < rounds; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += reciprocalRanks[Math.floor(random() * n)]!;
    means[b] = sum / n;
  }
  means.sort();
  return [means[Math.floor(rounds * 0.025)]!, means[Math.ceil(rounds * 0.975) - 1]!];
}

/** A result's reciprocal rank (0 when not in the first 10). */
const reciprocal = (r: EvalResult): number => (r.rank ? 1 / r.rank : 0);

function finish(results: EvalResult[]): EvalSummary {
  const total = results.length;
  const mrr10 = results.reduce((s, r) => s + reciprocal(r), 0) / Math.max(1, total);
  return {
    results,
    mrr10,
    at1: results.filter((r) => r.rank === 1).length,
    at5: results.filter((r) => r.rank !== null && r.rank <= 5).length,
    total,
  };
}

/** An index format the engine mode can force on the build's records: `one-file` (format 2) or `sharded` (format 3). */
export type IndexFormat = 'one-file' | 'sharded';

/**
 * The modal's hits for a query, in the modal's order, as sections (`/docs/x#a`), answered from
 * the build's index as written; or, given `format`, from the same records in that format, read
 * as the browser reads it: a one-file index whole; a sharded index (written in memory) through
 * the browser's client, a new one per query (a new page load), fetching only the files that
 * query reads.
 */
export async function answerer(buildDir: string, format?: IndexFormat, synonyms?: Synonym[], grow = 0): Promise<(q: string) => Promise<string[]>> {
  const read = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
  const index = read(join(buildDir, 'search/local-index.json'));
  const written = isShardManifest(index) ? engineFromShards(index, (name) => read(join(buildDir, 'search', SHARD_DIR, name))) : LocalSearchEngine.fromIndexFile(index);
  const shown = (hits: AlgoliaHit[]) => modalOrder(hits).map((h) => sectionPath(String(h.url)));
  const engineAnswers = (engine: LocalSearchEngine) => {
    if (synonyms) engine.useSynonyms(synonyms);
    return (q: string) => Promise.resolve(shown(answerQuery(engine, 'local', modalParams(q)).hits));
  };
  const writtenAs: IndexFormat = isShardManifest(index) ? 'sharded' : 'one-file';
  const list = (index as {synonyms?: Synonym[]}).synonyms ?? [];
  const as = format ?? writtenAs;
  if (as === writtenAs && grow === 0) return engineAnswers(written);
  const records = grow > 0 ? [...written.records, ...syntheticPages(written.records, grow)] : written.records;
  const engine = new LocalSearchEngine(records).useSynonyms(list);
  if (as === 'one-file') return engineAnswers(engine);
  const {manifest, files} = buildShards(records, 'https://example.invalid', engine, synonyms ?? list);
  const texts = new Map([...files].map(([name, text]) => [`/search/${SHARD_DIR}/${name}`, text]));
  texts.set('/search/local-index.json', JSON.stringify(manifest));
  const fetchFile = (url: string) => {
    const text = texts.get(new URL(url, 'http://local.invalid').pathname);
    return Promise.resolve({ok: text !== undefined, status: text === undefined ? 404 : 200, json: () => Promise.resolve(JSON.parse(text ?? 'null') as unknown)});
  };
  return async (q: string) => {
    const client = createLocalSearchClient({indexUrl: '/search/local-index.json', fetch: fetchFile});
    const {results} = await client.search({requests: [{indexName: 'local', ...modalParams(q)}]});
    return shown(results[0]!.hits);
  };
}

/**
 * `count` documentation pages of made-up words (none of the site's: each starts with `zq`), each
 * a title and three sections of two paragraphs, after the site's records (the site grown by
 * pages on other subjects: what its own queries find must not change).
 */
export function syntheticPages(site: readonly SearchRecord[], count: number): SearchRecord[] {
  const template = site.find((r) => r.type === 'lvl1' && r.docusaurus_tag.startsWith('docs'));
  if (!template) throw new Error('the build has no documentation page to model synthetic pages on');
  const random = mulberry32(48);
  const word = () => {
    let w = 'zq';
    for (let k = 2 + Math.floor(random() * 3); k > 0; k--) w += 'bdfgklmnprstvz'[Math.floor(random() * 14)]! + 'aeiou'[Math.floor(random() * 5)]!;
    return w;
  };
  const words = (n: number) => Array.from({length: n}, word).join(' ');
  const origin = new URL(template.url).origin;
  const out: SearchRecord[] = [];
  for (let p = 0; p < count; p++) {
    const page = `${origin}/docs/synthetic/page-${p}`;
    const title = words(2);
    const hierarchy = {...template.hierarchy, lvl1: title, lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null};
    out.push({...template, objectID: `synthetic-${p}`, url: page, url_without_anchor: page, anchor: null, type: 'lvl1', hierarchy, content: null, weight: {...template.weight, level: 100, position: 0}});
    for (let h = 0; h < 3; h++) {
      const heading = words(3);
      const anchor = heading.replace(/ /g, '-');
      const url = `${page}#${anchor}`;
      const under = {...hierarchy, lvl2: heading};
      out.push({...template, objectID: `synthetic-${p}-${h}`, url, url_without_anchor: page, anchor, type: 'lvl2', hierarchy: under, content: null, weight: {...template.weight, level: 90, position: 0}});
      for (let c = 0; c < 2; c++) {
        out.push({...template, objectID: `synthetic-${p}-${h}-${c}`, url, url_without_anchor: page, anchor, type: 'content', hierarchy: under, content: `${words(12)}.`, weight: {...template.weight, level: 0, position: c}});
      }
    }
  }
  return out;
}

/**
 * `synonyms`: answer with these instead of the ones the index carries (to try a list without a
 * build). `grow`: answer from the site plus that many synthetic pages (see syntheticPages).
 */
export async function engineEval(buildDir: string, queries: EvalQuery[], synonyms?: Synonym[], format?: IndexFormat, grow = 0): Promise<EvalSummary> {
  const answer = await answerer(buildDir, format, synonyms, grow);
  const results: EvalResult[] = [];
  for (const {q, pages, anchors} of queries) {
    const shown = await answer(q);
    results.push({q, rank: rankOf(shown, pages, anchors), shown});
  }
  return finish(results);
}

async function waitForServer(url: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

export async function browserEval(buildDir: string, queries: EvalQuery[], port: number): Promise<EvalSummary> {
  const {chromium} = await import('@playwright/test');
  const {CHROME_PATH, CHROME_ARGS} = await import('site/chrome');
  const base = `http://localhost:${port}`;
  let server: ChildProcess | null = null;
  if (!(await waitForServer(base, 300))) {
    // Its own process group, so that stopping it also stops the server npx starts.
    server = spawn('npx', ['docusaurus', 'serve', '--dir', buildDir, '--port', String(port), '--no-open'], {cwd: SITE, stdio: 'ignore', detached: true});
    if (!(await waitForServer(base, 60_000))) throw new Error(`docusaurus serve did not start on ${base}`);
  }
  const browser = await chromium.launch({executablePath: CHROME_PATH, args: CHROME_ARGS});
  const results: EvalResult[] = [];
  try {
    const page = await browser.newPage({viewport: {width: 1280, height: 900}});
    await page.goto(`${base}/docs/introduction`);
    // The search button shows its two key hints once React has hydrated the page.
    await page.waitForFunction(() => document.querySelectorAll('.DocSearch-Button-Keys kbd').length === 2, null, {timeout: 30_000});
    for (const {q, pages, anchors} of queries) {
      await page.keyboard.press('Control+k');
      const input = page.locator('.DocSearch-Input');
      await input.waitFor();
      await input.fill(q);
      // Wait until the modal shows the answer for this query: hits or the no-results screen.
      await page.waitForFunction(
        (query) => {
          const input = document.querySelector<HTMLInputElement>('.DocSearch-Input');
          const noResults = document.querySelector('.DocSearch-NoResults .DocSearch-Title strong');
          const hits = document.querySelectorAll('.DocSearch-Hit');
          return input?.value === query && (hits.length > 0 || noResults?.textContent?.includes(query));
        },
        q,
        // (a loaded machine: a 10 s wait read an empty modal for queries the engine answers at rank 1)
        {timeout: 30_000},
      ).catch(() => undefined);
      await page.waitForTimeout(150);
      const hrefs = await page.locator('.DocSearch-Hit a').evaluateAll((as) => as.map((a) => a.getAttribute('data-href') ?? a.getAttribute('href') ?? ''));
      const shown = hrefs.map(sectionPath);
      results.push({q, rank: rankOf(shown, pages, anchors), shown});
      await page.keyboard.press('Escape');
      await page.locator('.DocSearch-Modal').waitFor({state: 'detached'});
    }
  } finally {
    await browser.close();
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  }
  return finish(results);
}

/**
 * `aggregateOnly`: print the figures without a line per query (a set holding test-half questions:
 * issue 37 keeps them unread, so no one tunes on them).
 */
export function report(title: string, s: EvalSummary, verbose: boolean, target = 0.9, aggregateOnly = false): string {
  const lines = [title];
  for (const r of s.results) {
    if (!aggregateOnly && (verbose || r.rank !== 1)) {
      lines.push(`  ${r.rank === null ? ' -' : String(r.rank).padStart(2)}  ${r.q.padEnd(28)} ${r.shown.slice(0, 3).join('  ')}`);
    }
  }
  lines.push(
    `  MRR@10 ${s.mrr10.toFixed(3)} (95 % interval ${bootstrapInterval(s.results.map(reciprocal)).map((x) => x.toFixed(2)).join('-')})` +
      `   answered@1 ${s.at1}/${s.total}   answered@5 ${s.at5}/${s.total}` +
      `   (target: MRR@10 >= ${target}, ${s.total}/${s.total} within 5)`,
  );
  return lines.join('\n');
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const buildDir = resolve(arg('--build') ?? join(SITE, 'build'));
  const verbose = argv.includes('--verbose');
  const shared = arg('--shared') ?? SHARED_QUERIES;
  try {
    readFileSync(join(buildDir, 'search/local-index.json'));
  } catch {
    process.stderr.write(`search-eval: no local index in ${buildDir} (run npm run build first)\n`);
    process.exitCode = 2;
    return;
  }
  const format = arg('--format');
  const without = arg('--without');
  const bad = (message: string) => {
    process.stderr.write(`search-eval: ${message}\n`);
    process.exitCode = 2;
  };
  if (format !== undefined && format !== 'one-file' && format !== 'sharded') return bad(`--format must be one-file or sharded, not ${format}`);
  if (!/^\d*$/.test(arg('--grow') ?? '')) return bad(`--grow must be a number of pages, not ${arg('--grow')}`);
  try {
    if (without !== undefined) {
      const rules = without.split(',').filter((w) => w !== '');
      switchOff(rules);
      // and in the package as an ES module: the sharded reader the client loads with import() is
      // one (this script, compiled to CommonJS, requires the package's own copy)
      (await import('docs-search')).switchOff(rules);
    }
  } catch (error) {
    return bad((error as Error).message);
  }
  const known = argv.includes('--no-known') ? {queries: [], skipped: []} : knownItems(join(SITE, 'api'), buildDir);
  const queries = [...loadQueries(), ...(shared === 'none' ? [] : loadSet(resolve(shared), 'shared')), ...known.queries];
  if (known.queries.length > 0) {
    console.log(
      `Known items generated from site/api and the build: ${known.queries.filter((q) => q.set === 'identifiers').length} identifiers, ` +
        `${known.queries.filter((q) => q.set === 'plain-names').length} plain names, ` +
        `${known.queries.filter((q) => q.set === 'headings').length} headings; ${known.skipped.length} identifiers no section defines (left out)` +
        (verbose ? `: ${known.skipped.join(' ')}` : ''),
    );
  }
  const print = (title: string, all: EvalSummary, asked = queries, unit = 'queries') => {
    // One line of figures per set: base, forms, typos, the real questions and the shared file's.
    // A set holding any test-half question prints its figures only (that half is never read while tuning).
    const sets = querySets(asked);
    for (const [name, s] of splitSummary(asked, all)) {
      const aggregateOnly = unit !== 'queries' || (sets.get(name) ?? []).some((q) => q.split === 'test');
      console.log(report(`${title} — set "${name}" (${s.total} ${unit}):`, s, verbose, 0.95, aggregateOnly));
    }
  };
  if (argv.includes('--engine')) {
    const synonymsFile = arg('--synonyms');
    const synonyms = synonymsFile ? (JSON.parse(readFileSync(resolve(synonymsFile), 'utf8')) as {synonyms: Synonym[]}).synonyms : undefined;
    const grow = Number(arg('--grow') ?? 0);
    const title = `Local engine (modal order${format ? `, ${format}` : ''}${without ? `, without ${without}` : ''}${grow ? `, site + ${grow} synthetic pages` : ''})`;
    print(title, await engineEval(buildDir, queries, synonyms, format, grow));
    if (argv.includes('--typed')) {
      const typed = typedPrefixes(queries);
      print(`${title}, every typed prefix`, await engineEval(buildDir, typed, synonyms, format, grow), typed, 'prefixes');
    }
    return;
  }
  const port = Number(arg('--port') ?? process.env.E2E_PORT ?? 3014);
  print(`DocSearch modal in Chromium (port ${port})`, await browserEval(buildDir, queries, port));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`search-eval: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
