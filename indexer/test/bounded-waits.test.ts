/**
 * Every wait of a crawl is bounded (issue 36): a request's deadline fires whatever the server
 * does (no headers, a body sent a byte at a time, a redirect to a page that never answers), with
 * the documented retries; a URL crawl fetches at most --max-pages pages; a folder crawl opens
 * regular files only (a FIFO or a device named like a page would block it or never end).
 *
 * The deadline tests run the crawl in a child process that forces a garbage collection every
 * 100 ms: the deadline that could be collected before it fired (AbortSignal.any over
 * AbortSignal.timeout) hung there for good, as it did in real runs after a while.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFile, spawn} from 'node:child_process';
import {createServer, type Server} from 'node:http';
import {createServer as createNetServer} from 'node:net';
import {mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import type {AddressInfo, Socket} from 'node:net';
import {crawl} from '../src/crawl/crawl.ts';
import {publishToAlgolia} from '../src/publish/algolia/publish.ts';
import type {SearchRecord} from 'docs-search/record';
import {publishOptionsFor, startFakeAlgolia} from './fake-algolia.ts';
import {runCli, workspaceRoot} from './helpers.ts';

const record: SearchRecord = {
  objectID: 'one',
  url: 'https://wait.example/docs/a',
  url_without_anchor: 'https://wait.example/docs/a',
  anchor: null,
  type: 'lvl1',
  hierarchy: {lvl0: 'Docs', lvl1: 'A', lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null},
  content: null,
  weight: {pageRank: 0, level: 90, position: 0},
  language: 'en',
  docusaurus_tag: 'default',
};

const page = (title: string, canonical: string, links = ''): string =>
  `<!doctype html><html><head><title>${title} | Site</title><link rel=canonical href="${canonical}"></head>` +
  `<body><main><h1>${title}</h1><p>Words about ${title}.</p>${links}</main></body></html>`;

interface Site {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** A server answering `handle`; open sockets are destroyed on close (some requests never end). */
async function serve(handle: Parameters<typeof createServer>[1]): Promise<Site> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests.push(new URL(req.url ?? '/', 'http://x').pathname);
    handle?.(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Crawls `url` in a child process (deadline 3 s: the home page must come within it while CI runs
 * other suites beside this one; 2 attempts) that collects garbage every 100 ms; resolves to the result's pages and skipped pages, or to `hung` after `limitMs`.
 */
function crawlWithGc(url: string, limitMs = 20_000): Promise<{pages: number; skipped: {url: string; reason: string; detail?: string}[]} | 'hung'> {
  // The child says when its crawl starts: the limit counts from there, not from Node's and tsx's
  // start-up, which a busy machine (tests run several files at once) can stretch by seconds.
  const script = `
    import {crawl} from ${JSON.stringify(path.join(workspaceRoot, 'src', 'crawl', 'crawl.ts'))};
    setInterval(() => globalThis.gc(), 100);
    process.stderr.write('crawl-started\\n');
    const result = await crawl(${JSON.stringify(url)}, {timeoutMs: 3000, attempts: 2, maxFailed: 100, workers: 0, signal: new AbortController().signal});
    process.stdout.write(JSON.stringify({pages: result.pages, skipped: result.skippedPages}));
    process.exit(0);
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {cwd: workspaceRoot});
    let stdout = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (!timer && stderr.includes('crawl-started\n')) {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve('hung');
        }, limitMs);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(stdout));
      else if (code !== null) reject(new Error(`crawl exited ${code}: ${stderr}`));
    });
  });
}

/** A site whose home page links to /slow, which `slow` answers (or never does). */
async function siteWithSlowPage(slow: Parameters<typeof createServer>[1]): Promise<Site> {
  return serve((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname === '/') res.writeHead(200, {'content-type': 'text/html'}).end(page('Home', '/', '<a href="/slow">slow</a>'));
    else if (pathname === '/sitemap.xml') res.writeHead(404).end();
    else if (pathname === '/slow' || pathname === '/hop') slow?.(req, res);
    else res.writeHead(404).end();
  });
}

test('a page whose headers never come is given up after its deadline, on each of its attempts', async () => {
  const site = await siteWithSlowPage(() => {});
  try {
    const result = await crawlWithGc(site.url);
    assert.notEqual(result, 'hung', 'the crawl waited past its deadline');
    assert.deepEqual(result, {pages: 1, skipped: [{url: 'http://127.0.0.1:' + new URL(site.url).port + '/slow', reason: 'failed', detail: 'timed out after 3000 ms'}]});
    assert.equal(site.requests.filter((p) => p === '/slow').length, 2, 'two attempts');
  } finally {
    await site.close();
  }
});

test('a page whose body comes a byte at a time is given up after its deadline', async () => {
  const site = await siteWithSlowPage((_req, res) => {
    res.writeHead(200, {'content-type': 'text/html'});
    res.write('<!doctype html><html><body><p>');
    const timer = setInterval(() => res.write('x'), 50);
    res.on('close', () => clearInterval(timer));
  });
  try {
    const result = await crawlWithGc(site.url);
    if (result === 'hung') assert.fail('the crawl waited past its deadline');
    assert.equal(result.pages, 1);
    assert.deepEqual(result.skipped.map((s) => [s.reason, s.detail]), [['failed', 'timed out after 3000 ms']]);
  } finally {
    await site.close();
  }
});

test('a redirect to a page that never answers is given up after its deadline', async () => {
  const site = await siteWithSlowPage((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname === '/slow') res.writeHead(302, {location: '/hop'}).end();
    // /hop: never answered
  });
  try {
    const result = await crawlWithGc(site.url);
    if (result === 'hung') assert.fail('the crawl waited past its deadline');
    assert.deepEqual(result.skipped.map((s) => [s.reason, s.detail]), [['failed', 'timed out after 3000 ms']]);
  } finally {
    await site.close();
  }
});

/** A site whose sitemap index lists `sitemaps` sitemaps of `perSitemap` pages each. */
async function bigSitemapSite(sitemaps: number, perSitemap: number): Promise<Site> {
  return serve((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const origin = `http://${req.headers.host}`;
    if (pathname === '/') res.writeHead(200, {'content-type': 'text/html'}).end(page('Home', `${origin}/`));
    else if (pathname === '/sitemap.xml') {
      const list = Array.from({length: sitemaps}, (_, i) => `<sitemap><loc>${origin}/sitemap-${i}.xml</loc></sitemap>`).join('');
      res.writeHead(200, {'content-type': 'application/xml'}).end(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${list}</sitemapindex>`);
    } else if (/^\/sitemap-\d+\.xml$/.test(pathname)) {
      const n = Number(/\d+/.exec(pathname)?.[0]);
      const urls = Array.from({length: perSitemap}, (_, i) => `<url><loc>${origin}/p${n}-${i}</loc></url>`).join('');
      res.writeHead(200, {'content-type': 'application/xml'}).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
    } else res.writeHead(200, {'content-type': 'text/html'}).end(page(pathname.slice(1), `${origin}${pathname}`));
  });
}

test('a URL crawl fetches at most maxPages pages, reads no sitemap past the cap, and says it stopped', async () => {
  const site = await bigSitemapSite(100, 5);
  try {
    const result = await crawl(site.url, {maxPages: 30, workers: 0});
    assert.equal(result.pages, 30);
    assert.equal(result.maxPagesReached, 30);
    const pages = site.requests.filter((p) => /^\/p\d/.test(p));
    assert.equal(pages.length, 29, 'SOURCE and 29 pages of the sitemaps');
    const sitemaps = site.requests.filter((p) => p.startsWith('/sitemap-')).length;
    assert.equal(sitemaps, 6, 'no sitemap read past the cap');
  } finally {
    await site.close();
  }
  const fits = await bigSitemapSite(2, 5);
  try {
    const all = await crawl(fits.url, {maxPages: 11, workers: 0});
    assert.deepEqual([all.pages, all.maxPagesReached], [11, undefined], 'a site of exactly maxPages pages is not reported');
  } finally {
    await fits.close();
  }
});

test('crawl --max-pages N caps a URL crawl and prints that it stopped; a bad N is a usage error', async () => {
  const site = await bigSitemapSite(5, 10);
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-max-pages-'));
  try {
    const out = path.join(dir, 'records.json');
    const run = await runCli(['crawl', site.url, '--max-pages', '12', '--out', out, '--json']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, 'docs-indexer: stopped at 12 pages (--max-pages): the site names more, which were not crawled\n');
    const summary = JSON.parse(run.stdout) as {pages: number; maxPagesReached?: number};
    assert.deepEqual([summary.pages, summary.maxPagesReached], [12, 12]);
    const bad = await runCli(['crawl', site.url, '--max-pages', 'many']);
    assert.deepEqual([bad.code, bad.stderr], [2, 'docs-indexer: --max-pages must be a whole number from 1 to 1000000 (got "many")\n']);
  } finally {
    await site.close();
    await rm(dir, {recursive: true, force: true});
  }
});

test('a folder crawl opens regular files only: FIFOs, devices, sockets and links out of the folder are skipped with a warning', {timeout: 20_000}, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-special-'));
  const socketServer = createNetServer();
  try {
    await mkdir(path.join(dir, 'docs'));
    await mkdir(path.join(dir, 'data'));
    await writeFile(path.join(dir, 'index.html'), page('Home', 'https://special.example/'));
    await writeFile(path.join(dir, 'docs', 'a.html'), page('A', 'https://special.example/docs/a'));
    await writeFile(path.join(dir, 'data', 'b.txt'), page('B', 'https://special.example/docs/b'));
    await promisify(execFile)('mkfifo', [path.join(dir, 'docs', 'fifo.html')]);
    await symlink('/dev/zero', path.join(dir, 'docs', 'zero.html'));
    await symlink('/etc/hostname', path.join(dir, 'docs', 'outside.html'));
    await symlink(path.join('..', 'data', 'b.txt'), path.join(dir, 'docs', 'b.html'));
    await new Promise<void>((resolve) => socketServer.listen(path.join(dir, 'docs', 'socket.html'), resolve));
    const result = await crawl(dir, {workers: 0});
    assert.deepEqual(
      result.records.filter((r) => r.type === 'lvl1').map((r) => r.url),
      ['https://special.example/', 'https://special.example/docs/a', 'https://special.example/docs/b'],
    );
    assert.deepEqual(
      result.skippedPages.map((s) => [s.url, s.reason, s.detail]),
      [
        ['https://special.example/docs/fifo', 'not-a-file', 'docs/fifo.html is a FIFO'],
        ['https://special.example/docs/outside', 'not-a-file', 'docs/outside.html is a symbolic link to outside the folder'],
        ['https://special.example/docs/socket', 'not-a-file', 'docs/socket.html is a socket'],
        ['https://special.example/docs/zero', 'not-a-file', 'docs/zero.html is a symbolic link to outside the folder'],
      ],
    );
    // The CLI prints each as a warning.
    const run = await runCli(['crawl', dir, '--out', path.join(dir, 'records.json')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^skipped https:\/\/special\.example\/docs\/fifo: not-a-file \(docs\/fifo\.html is a FIFO\)$/m);
  } finally {
    socketServer.close();
    await rm(dir, {recursive: true, force: true});
  }
});

test('a FIFO or a link to /dev/zero named index.html does not hang the folder crawl', {timeout: 20_000}, async () => {
  for (const make of ['fifo', 'zero'] as const) {
    const dir = await mkdtemp(path.join(tmpdir(), 'indexer-fifo-home-'));
    try {
      await mkdir(path.join(dir, 'docs'));
      await writeFile(path.join(dir, 'docs', 'a.html'), page('A', 'https://fifo.example/docs/a'));
      await writeFile(path.join(dir, 'sitemap.xml'), '<urlset><url><loc>https://fifo.example/</loc></url><url><loc>https://fifo.example/docs/a</loc></url></urlset>');
      if (make === 'fifo') await promisify(execFile)('mkfifo', [path.join(dir, 'index.html')]);
      else await symlink('/dev/zero', path.join(dir, 'index.html'));
      const result = await crawl(dir, {workers: 0});
      assert.deepEqual(result.records.filter((r) => r.type === 'lvl1').map((r) => r.url), ['https://fifo.example/docs/a'], make);
      assert.deepEqual(result.skippedPages.map((s) => s.reason), ['not-a-file'], make);
    } finally {
      await rm(dir, {recursive: true, force: true});
    }
  }
});

test("a 7.9 MB page's memory stays within a small multiple of its size (the CLI runs with a 96 MB heap)", {timeout: 120_000}, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-page-memory-'));
  try {
    const size = 7.9 * 1024 * 1024;
    const head = (name: string): string => `<!doctype html><html><head><title>${name} | Site</title><link rel=canonical href="https://memory.example/docs/${name}"></head><body><main><h1>${name}</h1>`;
    await mkdir(path.join(dir, 'docs'));
    await writeFile(path.join(dir, 'index.html'), page('Home', 'https://memory.example/'));
    // A million tiny paragraphs: a million records, 366 MB of JSON, 1.5 GB of memory before.
    await writeFile(path.join(dir, 'docs', 'tiny.html'), `${head('tiny')}${'<p>a</p>'.repeat(Math.floor(size / 8))}</main></body></html>`);
    // One paragraph of 1.6 million words: 500 MB of memory before.
    await writeFile(path.join(dir, 'docs', 'words.html'), `${head('words')}<p>${'word '.repeat(Math.floor(size / 5))}</p></main></body></html>`);
    const out = path.join(dir, 'records.json');
    const run = await runCli(['crawl', dir, '--out', out], {NODE_OPTIONS: '--max-old-space-size=96'});
    assert.equal(run.code, 0, run.stderr.slice(0, 2000));
    assert.match(run.stderr, /^skipped https:\/\/memory\.example\/docs\/tiny: too-many-records$/m);
    assert.match(run.stderr, /^crawled 2 pages \(1 skipped\): \d+ records written/m);
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('an Algolia answer whose body comes a byte at a time is given up after the deadline, with the retries', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.faults.push({step: 'getSettings', fault: 'trickle'});
    const started = performance.now();
    await assert.rejects(
      publishToAlgolia([record], publishOptionsFor(fake, 'docs', {timeoutMs: 300, attempts: 2, retryDelayMs: 5})),
      /^PublishError: reading the live index settings failed after 2 attempts: timed out; the live index "docs" was not changed$/,
    );
    assert.ok(performance.now() - started < 5_000, `took ${Math.round(performance.now() - started)} ms`);
    assert.equal(fake.log.filter((entry) => entry.step === 'getSettings').length, 2);
  } finally {
    await fake.close();
  }
});
