import {test} from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {crawl} from '../src/crawl/crawl.ts';
import {ExtractPool, WorkerLostError} from '../src/extract/pool.ts';
import {RecordStore} from '../src/records/store.ts';
import {SourceError} from '../src/errors.ts';
import {exists, fixture, serveFolder, siteBuild} from './helpers.ts';

const built = await exists(path.join(siteBuild, 'index.html'));
const skip = built ? false : 'site/build is absent: run `cd site && npx docusaurus build` to test extraction on the real site';

test('the real site build: worker threads give the same records, in the same order, as one thread', {skip}, async () => {
  const inThread = await crawl(siteBuild, {workers: 0});
  const pooled = await crawl(siteBuild, {workers: 2});
  assert.ok(inThread.records.length > 1000, `only ${inThread.records.length} records`);
  assert.equal(JSON.stringify(pooled.records), JSON.stringify(inThread.records));
  assert.equal(pooled.store.size, inThread.records.length);
  // crawl --out writes each page's JSON text as the worker made it: the same bytes.
  const streamed: string[] = [];
  const result = await crawl(siteBuild, {workers: 2, collect: false, onPage: (page) => void streamed.push(page.json)});
  assert.equal(`[${streamed.map((json) => json.slice(1, -1)).join(',')}]`, JSON.stringify(inThread.records));
  assert.deepEqual(result.records, []);
  assert.equal(result.recordCount, inThread.records.length);
});

test('pages a worker extracted are kept deflated and come back page by page, unchanged', async () => {
  const plain = await crawl(fixture('mini-site'), {workers: 0});
  const pooled = await crawl(fixture('mini-site'), {workers: 1});
  assert.deepEqual([...pooled.store.pages()].map((page) => page.length), [...plain.store.pages()].map((page) => page.length));
  assert.deepEqual(pooled.records, plain.records);
  assert.equal(pooled.store.validated, true);
  assert.deepEqual([...RecordStore.of(plain.records)], plain.records);
  // Records picked by position across pages (what a minimal publish sends).
  const all = plain.records;
  const positions = [0, 1, all.length - 1];
  assert.ok([...pooled.store.pages()].length > 1 && (pooled.store.pages().next().value?.length ?? 0) > 1);
  assert.deepEqual([...pooled.store.recordsAt(positions)], positions.map((p) => [p, all[p]]));
  assert.deepEqual([...pooled.store.recordsAt([])], []);
});

test('a sitemap crawl on workers gives the records of a crawl in one thread', async () => {
  const site = await serveFolder(fixture('mini-site'));
  try {
    const plain = await crawl(site.url, {workers: 0});
    const pooled = await crawl(site.url, {workers: 1});
    assert.equal(pooled.mode, 'sitemap');
    assert.equal(JSON.stringify(pooled.records), JSON.stringify(plain.records));
  } finally {
    await site.close();
  }
});

test('an unreadable page fails a pooled crawl with the same one-line SourceError', async () => {
  const pool = new ExtractPool(1);
  try {
    await assert.rejects(
      pool.run({file: fixture('mini-site', 'no-such-page.html'), url: 'https://mini.example.org/x', pageRank: 0, pack: false}),
      (error: Error) => error instanceof SourceError && /^cannot read .*no-such-page\.html: ENOENT$/.test(error.message),
    );
  } finally {
    await pool.close();
  }
});

test('a worker that runs out of memory fails its jobs with WorkerLostError, and the pool says so for new jobs', async () => {
  const pool = new ExtractPool(1, {young: 2, old: 16});
  const run = (html: string) => pool.run({html, url: 'https://a.example/page', pageRank: 0, pack: false});
  try {
    assert.equal((await run('<main><h1>Small</h1><p>fits</p></main>')).count, 2);
    const huge = `<main><h1>Huge</h1>${'<p>word and more words</p>'.repeat(200_000)}</main>`;
    await assert.rejects(run(huge), (error: Error) => error instanceof WorkerLostError && /out of memory/.test(error.message));
    await assert.rejects(run('<p>x</p>'), (error: Error) => error instanceof WorkerLostError && /no extract worker left/.test(error.message));
  } finally {
    await pool.close();
  }
});

/** A copy of mini-site's intro page whose article holds `inner` before its end. */
/** docs/intro.html of the mini site with `inner` added to its article, served as /docs/NAME (its canonical link says so, as in a real build). */
async function pageWith(inner: string, name: string): Promise<string> {
  const {readFile} = await import('node:fs/promises');
  const html = (await readFile(fixture('mini-site', 'docs', 'intro.html'), 'utf8')).replace(
    'rel=canonical href=https://mini.example.org/docs/intro>',
    `rel=canonical href=https://mini.example.org/docs/${name}>`,
  );
  const end = html.indexOf('</article>');
  return `${html.slice(0, end)}${inner}${html.slice(end)}`;
}

test('huge and deeply nested pages among 120: skipped with a reason or extracted on the calling thread, never a crash', async () => {
  const {mkdtemp, writeFile, rm, cp} = await import('node:fs/promises');
  const {tmpdir} = await import('node:os');
  const {MAX_PAGE_BYTES, MAX_WORKER_PAGE_BYTES} = await import('../src/extract/pool.ts');
  const {MAX_NESTING_DEPTH} = await import('../src/extract/page-reader.ts');
  const dir = await mkdtemp(path.join(tmpdir(), 'docs-indexer-huge-'));
  try {
    await cp(fixture('mini-site'), dir, {recursive: true});
    for (let i = 0; i < 120; i++) {
      const name = `p${String(i).padStart(3, '0')}`;
      await writeFile(path.join(dir, 'docs', `${name}.html`), await pageWith('', name));
    }
    const paragraph = `<p>${'word '.repeat(200)}</p>`;
    // Too big for a worker's capped heap: the calling thread extracts it, every paragraph indexed.
    const big = await pageWith(paragraph.repeat(Math.ceil((MAX_WORKER_PAGE_BYTES * 1.5) / paragraph.length)), 'big');
    await writeFile(path.join(dir, 'docs', 'big.html'), big);
    // Past the documented size: skipped (a 50 MB page aborted the whole process on a worker).
    await writeFile(path.join(dir, 'docs', 'huge.html'), await pageWith(paragraph.repeat(Math.ceil((MAX_PAGE_BYTES + 1) / paragraph.length)), 'huge'));
    // Nested past the documented depth, closed and unclosed: skipped in linear time.
    await writeFile(path.join(dir, 'docs', 'deep.html'), await pageWith(`${'<div>'.repeat(100_000)}<p>deep</p>${'</div>'.repeat(100_000)}`, 'deep'));
    await writeFile(path.join(dir, 'docs', 'unclosed.html'), await pageWith('<span>x '.repeat(300_000), 'unclosed'));
    const skips: string[] = [];
    const started = performance.now();
    const result = await crawl(dir, {workers: 2, onEvent: (e) => e.type === 'skip' && skips.push(`${new URL(e.url).pathname} ${e.reason}`)});
    const seconds = (performance.now() - started) / 1000;
    assert.deepEqual(skips.filter((s) => /too-/.test(s)).sort(), ['/docs/deep too-deep', '/docs/huge too-large', '/docs/unclosed too-deep']);
    const bigRecords = result.records.filter((r) => r.url_without_anchor.endsWith('/docs/big'));
    assert.ok(bigRecords.length > 1000, `the big page is indexed whole (${bigRecords.length} records)`);
    assert.ok(result.records.some((r) => r.url_without_anchor.endsWith('/docs/p119')));
    assert.ok(MAX_NESTING_DEPTH >= 100, 'room for real pages');
    // Not a timing assertion of the code under test's speed, a guard against the quadratic case (minutes).
    assert.ok(seconds < 60, `${seconds} s`);
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});
