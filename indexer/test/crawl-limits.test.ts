/**
 * Pages read as a browser reads them (issue 29): the charset from the HTTP header, a BOM or the
 * page's <meta>; and the size limit on every page the crawl reads, the site's home page included.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type Server} from 'node:http';
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {AddressInfo} from 'node:net';
import {crawl} from '../src/crawl/crawl.ts';
import {MAX_PAGE_BYTES} from '../src/extract/pool.ts';
import {runCli, serveFolder} from './helpers.ts';

const page = (canonical: string, head: string, body: string): string =>
  `<!doctype html><html lang=fr><head>${head}<title>Page | Site</title><link rel=canonical href="${canonical}"></head>` +
  `<body><main><h1>Page</h1><p>${body}</p></main></body></html>`;
const contents = (records: {type: string; content: string | null}[]): (string | null)[] => records.filter((r) => r.type === 'content').map((r) => r.content);

/** "Привіт" in windows-1251. */
const PRYVIT_1251 = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xb3, 0xf2]);

async function withFolder(files: Record<string, string | Buffer>, run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-limits-'));
  try {
    for (const [name, body] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, name)), {recursive: true});
      await writeFile(path.join(dir, name), body);
    }
    await run(dir);
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
}

test('a folder page is decoded with its <meta charset> or its BOM, not always as UTF-8', async () => {
  await withFolder(
    {
      'index.html': page('https://cs.example/', '<meta charset="utf-8">', 'Accueil'),
      'latin1.html': Buffer.from(page('https://cs.example/latin1', '<meta charset="iso-8859-1">', 'Café crème, 2½ tasses'), 'latin1'),
      'http-equiv.html': Buffer.concat([
        Buffer.from(page('https://cs.example/http-equiv', '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">', 'X').split('X')[0] ?? '', 'latin1'),
        PRYVIT_1251,
        Buffer.from('</p></main></body></html>'),
      ]),
      'utf16.html': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(page('https://cs.example/utf16', '', 'Привіт, світе'), 'utf16le')]),
    },
    async (dir) => {
      const {records} = await crawl(dir);
      const byPage = (url: string): (string | null)[] => contents(records.filter((r) => r.url_without_anchor === url));
      assert.deepEqual(byPage('https://cs.example/latin1'), ['Café crème, 2½ tasses']);
      assert.deepEqual(byPage('https://cs.example/http-equiv'), ['Привіт']);
      assert.deepEqual(byPage('https://cs.example/utf16'), ['Привіт, світе']);
      assert.deepEqual(byPage('https://cs.example/'), ['Accueil']);
    },
  );
});

/** Serves `pages` (path → [Content-Type, body]) in chunks, without a Content-Length. */
async function serve(pages: Record<string, [string, Buffer]>): Promise<{url: string; server: Server}> {
  const server = createServer((req, res) => {
    const found = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (!found) {
      res.writeHead(404, {'content-type': 'text/html'}).end('<title>Page Not Found</title>');
      return;
    }
    res.writeHead(200, {'content-type': found[0]});
    const body = found[1];
    for (let i = 0; i < body.length; i += 64 * 1024) res.write(body.subarray(i, i + 64 * 1024));
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server};
}

test('a fetched page is decoded with the charset of its Content-Type header first, then its <meta>', async () => {
  const links = '<a href=/header>h</a> <a href=/meta>m</a> <a href=/both>b</a>';
  const {url, server} = await serve({
    '/': ['text/html', Buffer.from(page('https://cs.example/', '', `Accueil ${links}`))],
    '/header': ['text/html; charset=windows-1251', Buffer.concat([Buffer.from(page('https://cs.example/header', '', 'X').split('X')[0] ?? ''), PRYVIT_1251, Buffer.from('</p></main></body></html>')])],
    '/meta': ['text/html', Buffer.from(page('https://cs.example/meta', '<meta charset=iso-8859-1>', 'Café'), 'latin1')],
    // The header wins over the page's <meta>, as in a browser.
    '/both': ['text/html; charset="UTF-8"', Buffer.from(page('https://cs.example/both', '<meta charset=iso-8859-1>', 'Déjà vu'), 'utf8')],
  });
  try {
    const {records} = await crawl(url);
    const byPage = (page: string): (string | null)[] => contents(records.filter((r) => r.url_without_anchor === page));
    assert.deepEqual(byPage('https://cs.example/header'), ['Привіт']);
    assert.deepEqual(byPage('https://cs.example/meta'), ['Café']);
    assert.deepEqual(byPage('https://cs.example/both'), ['Déjà vu']);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A home page of about `megabytes` MB whose canonical names another host than the rest of the site. */
function hugeHome(megabytes: number): Buffer {
  const head = '<!doctype html><html><head><title>Home | Site</title><link rel=canonical href="https://wrong-root.example/"></head><body><main><h1>Home</h1>';
  const paragraph = Buffer.from('<p>Words that no reader will ever look for in a page this large.</p>');
  const count = Math.ceil((megabytes * 1024 * 1024) / paragraph.length);
  return Buffer.concat([Buffer.from(head), Buffer.alloc(count * paragraph.length, paragraph), Buffer.from('</main></body></html>')]);
}

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
  `<url><loc>https://big.example/</loc></url><url><loc>https://big.example/docs/a</loc></url></urlset>`;

test('a 50 MB home page is skipped as too-large without being read: the crawl ends in bounded memory, its root from the sitemap', async () => {
  await withFolder(
    {'index.html': hugeHome(50), 'sitemap.xml': SITEMAP, 'docs/a.html': page('https://big.example/docs/a', '', 'The page people look for.')},
    async (dir) => {
      // A heap of 160 MB: reading and parsing the home page whole took 1.4 GB.
      const run = await runCli(['crawl', dir, '--json', '--out', path.join(dir, 'records.json')], {NODE_OPTIONS: '--max-old-space-size=160'});
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, 'skipped https://big.example/: too-large\n');
      const summary = JSON.parse(run.stdout) as {pages: number; skippedPages: unknown[]};
      assert.equal(summary.pages, 1);
      // Over HTTP, the SOURCE page is not read past the limit either.
      const site = await serveFolder(dir);
      try {
        const result = await crawl(site.url);
        assert.deepEqual(result.skippedPages, [{url: 'https://big.example/', reason: 'too-large', detail: `larger than ${MAX_PAGE_BYTES / 1024 / 1024} MB`}]);
        assert.deepEqual([...new Set(result.records.map((r) => r.url_without_anchor))], ['https://big.example/docs/a']);
      } finally {
        await site.close();
      }
    },
  );
});

test('a fetched page sent without a Content-Length is not read past the size limit', async () => {
  const {url, server} = await serve({
    '/': ['text/html', Buffer.from(page('https://chunked.example/', '', 'Home <a href=/big>big</a> <a href=/small>small</a>'))],
    '/big': ['text/html', hugeHome(9)],
    '/small': ['text/html', Buffer.from(page('https://chunked.example/small', '', 'Small page.'))],
  });
  try {
    const result = await crawl(url);
    assert.deepEqual(result.skippedPages, [{url: 'https://chunked.example/big', reason: 'too-large', detail: 'larger than 8 MB'}]);
    assert.equal(result.pages, 2);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a sitemap over 16 MB is not read: skipped as too-large, the crawl goes on from the links', async () => {
  const entry = '<url><loc>https://sm.example/docs/a-page-that-does-not-exist</loc></url>';
  const huge = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entry.repeat(Math.ceil((17 * 1024 * 1024) / entry.length))}</urlset>`;
  const {url, server} = await serve({
    '/': ['text/html', Buffer.from(page('https://sm.example/', '', 'Home <a href=/small>small</a>'))],
    '/small': ['text/html', Buffer.from(page('https://sm.example/small', '', 'Small page.'))],
    '/sitemap.xml': ['application/xml', Buffer.from(huge)],
  });
  try {
    const result = await crawl(url);
    assert.deepEqual(result.skippedPages, [{url: `${url}sitemap.xml`, reason: 'too-large', detail: 'larger than 16 MB'}]);
    assert.equal(result.pages, 2);
    assert.equal(result.mode, 'links');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
