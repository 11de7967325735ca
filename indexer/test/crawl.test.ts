import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {crawl, parseSitemap, percentAbove, type CrawlEvent} from '../src/crawl/crawl.ts';
import {SourceError, UsageError} from '../src/errors.ts';
import type {SearchRecord} from 'docs-search/record';
import {fixture, serveFolder} from './helpers.ts';

const MINI = fixture('mini-site');
const pagesOf = (records: {url_without_anchor: string}[]): string[] => [...new Set(records.map((r) => r.url_without_anchor))];

test('a folder crawl indexes every page at its served URL (no .html), skipping noindex and 404', async () => {
  const events: CrawlEvent[] = [];
  const result = await crawl(MINI, {onEvent: (e) => events.push(e)});
  assert.equal(result.baseUrl, 'https://mini.example.org/');
  assert.deepEqual(pagesOf(result.records), [
    'https://mini.example.org/',
    'https://mini.example.org/docs/guide/setup',
    'https://mini.example.org/docs/intro',
  ]);
  assert.equal(result.pages, 3);
  assert.equal(result.skipped, 2);
  assert.deepEqual(events.filter((e) => e.type === 'skip').map((e) => [e.type === 'skip' && e.reason, e.type === 'skip' && e.url]).sort(), [
    ['noindex', 'https://mini.example.org/docs/hidden'],
    ['not-found', 'https://mini.example.org/404'],
  ]);
  assert.equal(events[0]?.type, 'start');
  assert.equal(events.at(-1)?.type, 'done');
  const setup = result.records.filter((r) => r.url_without_anchor.endsWith('/setup'));
  assert.deepEqual(setup.map((r) => r.content), [null, 'Setup takes two steps.', '1 · Enable the API', '2 · Call /api']);
  assert.equal(setup[0]?.hierarchy.lvl0, 'Guide');
});

test('onPage streams each page in result order; collect: false keeps no records', async () => {
  const full = await crawl(MINI);
  for (const source of [MINI]) {
    const streamed: SearchRecord[] = [];
    const result = await crawl(source, {collect: false, concurrency: 3, onPage: async (page) => {
      await new Promise((r) => setTimeout(r, page.url.length % 3));
      streamed.push(...page.records);
    }});
    assert.deepEqual(result.records, []);
    assert.equal(result.recordCount, full.records.length);
    assert.deepEqual(streamed, full.records);
  }
});

test('--base-url rebases every record URL', async () => {
  const result = await crawl(MINI, {baseUrl: 'https://preview.example.net/sub'});
  assert.deepEqual(pagesOf(result.records), [
    'https://preview.example.net/sub/',
    'https://preview.example.net/sub/docs/guide/setup',
    'https://preview.example.net/sub/docs/intro',
  ]);
  assert.ok(result.records.some((r) => r.url === 'https://preview.example.net/sub/docs/intro#next'));
});

test('the record order does not depend on concurrency', async () => {
  const one = await crawl(MINI, {concurrency: 1});
  const many = await crawl(MINI, {concurrency: 16});
  assert.deepEqual(one.records, many.records);
});

test('a URL crawl reads sitemap.xml (priority 0.5 = pageRank 0) and gives the folder crawl\'s records', async () => {
  const site = await serveFolder(MINI);
  try {
    const result = await crawl(site.url);
    assert.equal(result.mode, 'sitemap');
    // Record URLs are what the pages say they are (their canonical links), not where they were fetched.
    assert.deepEqual(pagesOf(result.records), ['https://mini.example.org/', 'https://mini.example.org/docs/guide/setup', 'https://mini.example.org/docs/intro']);
    assert.equal(result.records.find((r) => r.url_without_anchor.endsWith('/intro'))?.weight.pageRank, 3, 'priority 0.8');
    assert.equal(result.records.find((r) => r.url_without_anchor.endsWith('/setup'))?.weight.pageRank, 0, 'priority 0.5');
    // Links are followed too: the noindex page is fetched, then skipped and reported.
    assert.deepEqual(result.skippedPages, [{url: 'https://mini.example.org/docs/hidden', reason: 'noindex'}]);
    assert.ok(!site.requests.some((r) => r.includes('elsewhere')), 'links to other sites are not followed');
    const folder = await crawl(MINI);
    assert.equal(JSON.stringify(result.records), JSON.stringify(folder.records), 'a folder and a URL give the same records');
  } finally {
    await site.close();
  }
});

test('--base-url also rebases the records of a URL crawl', async () => {
  const site = await serveFolder(MINI);
  try {
    const result = await crawl(site.url, {baseUrl: 'https://docs.example.com/'});
    assert.deepEqual(pagesOf(result.records), ['https://docs.example.com/', 'https://docs.example.com/docs/guide/setup', 'https://docs.example.com/docs/intro']);
  } finally {
    await site.close();
  }
});

test('without a sitemap a URL crawl follows same-origin links only', async () => {
  const site = await serveFolder(MINI, {hideSitemap: true});
  try {
    const events: CrawlEvent[] = [];
    const result = await crawl(site.url, {onEvent: (e) => events.push(e)});
    assert.equal(result.mode, 'links');
    assert.deepEqual(pagesOf(result.records), ['https://mini.example.org/', 'https://mini.example.org/docs/guide/setup', 'https://mini.example.org/docs/intro']);
    assert.ok(events.some((e) => e.type === 'skip' && e.reason === 'noindex' && e.url.endsWith('/docs/hidden')));
    assert.ok(!site.requests.some((r) => r.includes('elsewhere')));
  } finally {
    await site.close();
  }
});

test('a URL crawl retries a page that fails once; a page that keeps failing is skipped, up to --max-failed', async () => {
  const flaky = await serveFolder(MINI, {fail: (p, n) => (p === '/docs/intro' && n === 1 ? 503 : p === '/docs/guide/setup' && n === 1 ? 'drop' : undefined)});
  try {
    const events: CrawlEvent[] = [];
    const result = await crawl(flaky.url, {onEvent: (e) => events.push(e)});
    assert.equal(result.pages, 3);
    assert.equal(result.failed, 0);
    assert.equal(events.filter((e) => e.type === 'retry').length, 2);
  } finally {
    await flaky.close();
  }
  const broken = await serveFolder(MINI, {fail: (p) => (p === '/docs/intro' ? 500 : undefined)});
  try {
    // 1 page of 4 fetched failed: 25 %.
    await assert.rejects(crawl(broken.url, {attempts: 2}), {
      name: 'CrawlError',
      message: `1 of 4 pages could not be fetched (25%, more than --max-failed 10%), e.g. https://mini.example.org/docs/intro: HTTP 500 for ${broken.url}docs/intro; nothing was written`,
    });
    const events: CrawlEvent[] = [];
    const result = await crawl(broken.url, {attempts: 2, maxFailed: 25, onEvent: (e) => events.push(e)});
    assert.equal(result.pages, 2);
    assert.equal(result.failed, 1);
    assert.deepEqual(result.skippedPages.find((p) => p.reason === 'failed'), {url: 'https://mini.example.org/docs/intro', reason: 'failed', detail: `HTTP 500 for ${broken.url}docs/intro`});
    assert.ok(events.some((e) => e.type === 'skip' && e.reason === 'failed'));
  } finally {
    await broken.close();
  }
});

test('an unreadable or empty source is a SourceError; a bad base URL is a UsageError', async () => {
  await assert.rejects(crawl(path.join(MINI, 'missing')), (e) => e instanceof SourceError && /no such folder/.test(e.message));
  const empty = await mkdtemp(path.join(tmpdir(), 'indexer-empty-'));
  await assert.rejects(crawl(empty), (e) => e instanceof SourceError && e.message === `SOURCE "${empty}" contains no HTML pages`);
  await writeFile(path.join(empty, 'only.html'), '<html><head><meta name=robots content=noindex></head><body><h1>x</h1></body></html>');
  await assert.rejects(crawl(empty, {baseUrl: 'https://x.org/'}), (e) => e instanceof SourceError && e.message === `the crawl of ${empty} found no pages to index: its only page was skipped (https://x.org/only: noindex)`);
  await assert.rejects(crawl(empty), (e) => e instanceof UsageError && /pass --base-url URL/.test(e.message));
  await assert.rejects(crawl(MINI, {baseUrl: 'not a url'}), UsageError);
  await rm(empty, {recursive: true, force: true});
  await assert.rejects(crawl('http://127.0.0.1:9/', {attempts: 1}), (e) => e instanceof SourceError && /^cannot read SOURCE http:\/\/127\.0\.0\.1:9\//.test(e.message));
});

test('a redirect that leaves the site is not followed: the page is skipped and reported', async () => {
  const foreign = await serveFolder(MINI);
  const site = await serveFolder(MINI, {
    redirect: (p) => (p === '/docs/intro' ? `${foreign.url}docs/guide/setup` : p === '/docs/guide/setup' ? '/docs/guide/setup.html' : undefined),
  });
  try {
    const result = await crawl(site.url);
    assert.deepEqual(foreign.requests, [], 'nothing is fetched from the other site');
    assert.deepEqual(result.skippedPages.find((p) => p.reason === 'off-site'), {
      url: 'https://mini.example.org/docs/intro',
      reason: 'off-site',
      detail: `redirects off the site, to ${foreign.url}docs/guide/setup`,
    });
    // A redirect inside the site is followed.
    assert.deepEqual(pagesOf(result.records), ['https://mini.example.org/', 'https://mini.example.org/docs/guide/setup']);
    assert.equal(result.failed, 0);
  } finally {
    await site.close();
    await foreign.close();
  }
});

test('a URL crawl stays below the base path of SOURCE', async () => {
  const site = await serveFolder(MINI);
  try {
    // SOURCE /docs/intro: its links to / and /docs/guide/setup lie outside and are not fetched.
    const result = await crawl(`${site.url}docs/intro`);
    assert.deepEqual([...new Set(site.requests)].sort(), ['/docs/intro', '/docs/intro/sitemap.xml']);
    assert.deepEqual(pagesOf(result.records), ['https://mini.example.org/docs/intro']);
  } finally {
    await site.close();
  }
});

test('credentials in SOURCE are sent as Basic auth and never reach a record or a message', async () => {
  const site = await serveFolder(MINI);
  try {
    const withAuth = site.url.replace('http://', 'http://reader:s3cret-pw@');
    const result = await crawl(withAuth);
    assert.equal(site.authorizations[0], `Basic ${Buffer.from('reader:s3cret-pw').toString('base64')}`);
    assert.ok(!JSON.stringify(result.records).includes('s3cret'));
    const events: CrawlEvent[] = [];
    await crawl(withAuth, {baseUrl: 'https://docs.example.com/', onEvent: (e) => events.push(e)});
    assert.ok(!JSON.stringify(events).includes('s3cret'));
  } finally {
    await site.close();
  }
  await assert.rejects(crawl('http://reader:s3cret-pw@127.0.0.1:9/', {attempts: 1}), (e: Error) => e instanceof SourceError && !e.message.includes('s3cret') && e.message.includes('127.0.0.1:9'));
  await assert.rejects(crawl(MINI, {baseUrl: 'https://reader:s3cret-pw@docs.example.com/'}), (e: Error) =>
    e instanceof UsageError && e.message === '--base-url must not contain a user name or password (got "https://***@docs.example.com/")',
  );
});

test('sitemaps are read by an XML parser: entities decoded, priorities kept, indexes and alternates', () => {
  const sitemap = parseSitemap(
    '<?xml version="1.0"?><urlset xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>https://e.org/it&#39;s</loc><priority>0.8</priority>' +
      '<xhtml:link rel="alternate" hreflang="fr" href="https://e.org/fr/it&#39;s"/></url><url><loc>https://e.org/o&apos;k?a=1&amp;b=2</loc><priority>0.3</priority></url></urlset>',
  );
  assert.deepEqual(sitemap.urls, [
    {loc: "https://e.org/it's", priority: 0.8, alternates: ["https://e.org/fr/it's"]},
    {loc: "https://e.org/o'k?a=1&b=2", priority: 0.3, alternates: []},
  ]);
  assert.deepEqual(parseSitemap('<sitemapindex><sitemap><loc>https://e.org/a.xml</loc></sitemap></sitemapindex>').sitemaps, ['https://e.org/a.xml']);
  assert.deepEqual(parseSitemap('not xml <<<'), {urls: [], sitemaps: []});
});

test('a URL crawl reads sitemap indexes and each locale\'s sitemap (from the home page\'s hreflang links)', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-sitemaps-'));
  const page = (url: string, title: string, head = ''): string =>
    `<html><head><title>${title}</title><link rel=canonical href=${url}>${head}</head><body><main><h1>${title}</h1><p>${title} text.</p></main></body></html>`;
  const urlset = (...locs: string[]): string => `<?xml version="1.0"?><urlset>${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
  try {
    const {mkdir} = await import('node:fs/promises');
    await mkdir(path.join(dir, 'fr'));
    // No page links to another: only the sitemaps can find them.
    await writeFile(path.join(dir, 'index.html'), page('https://s.example/', 'Home', '<link rel=alternate hreflang=fr href=https://s.example/fr/>'));
    await writeFile(path.join(dir, 'a.html'), page('https://s.example/a', 'Alpha'));
    await writeFile(path.join(dir, 'fr', 'index.html'), page('https://s.example/fr/', 'Accueil'));
    await writeFile(path.join(dir, 'fr', 'b.html'), page('https://s.example/fr/b', 'Bêta'));
    await writeFile(path.join(dir, 'sitemap.xml'), '<?xml version="1.0"?><sitemapindex><sitemap><loc>https://s.example/sitemap-pages.xml</loc></sitemap></sitemapindex>');
    await writeFile(path.join(dir, 'sitemap-pages.xml'), urlset('https://s.example/', 'https://s.example/a'));
    await writeFile(path.join(dir, 'fr', 'sitemap.xml'), urlset('https://s.example/fr/', 'https://s.example/fr/b'));
    const site = await serveFolder(dir);
    try {
      const result = await crawl(site.url);
      assert.equal(result.mode, 'sitemap');
      assert.deepEqual(pagesOf(result.records), ['https://s.example/', 'https://s.example/a', 'https://s.example/fr/', 'https://s.example/fr/b']);
      assert.deepEqual(JSON.stringify(result.records), JSON.stringify((await crawl(dir)).records));
    } finally {
      await site.close();
    }
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('the --max-failed message never rounds the failed share down to the limit', () => {
  assert.equal(percentAbove((3 / 299) * 100, 1), '1.003');
  assert.equal(percentAbove(25, 10), '25');
  assert.equal(percentAbove((1 / 3) * 100, 0), '33.3');
  assert.equal(percentAbove((11 / 100) * 100, 10), '11');
});

test('a page naming an indexed page as its canonical is skipped as a duplicate under its own URL, naming the page it repeats', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-dup-'));
  const page = (canonical: string, title: string): string =>
    `<!doctype html><html><head><title>${title}</title><link rel="canonical" href="${canonical}"></head><body><main><h1>${title}</h1><p>Text of ${title}.</p></main></body></html>`;
  try {
    await writeFile(path.join(dir, 'index.html'), page('https://dup.example/', 'Home').replace('</main>', '<a href="a">A</a> <a href="b">B</a></main>'));
    await writeFile(path.join(dir, 'a.html'), page('https://dup.example/a', 'A'));
    await writeFile(path.join(dir, 'b.html'), page('https://dup.example/a', 'B'));
    const folder = await crawl(dir);
    assert.deepEqual(folder.skippedPages, [{url: 'https://dup.example/b', reason: 'duplicate', detail: 'same page as https://dup.example/a'}]);
    const site = await serveFolder(dir);
    try {
      const fetched = await crawl(site.url);
      assert.deepEqual(fetched.skippedPages, [{url: 'https://dup.example/b', reason: 'duplicate', detail: 'same page as https://dup.example/a'}]);
    } finally {
      await site.close();
    }
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('numeric options of a URL crawl out of their range are a UsageError before any request', async () => {
  for (const [options, message] of [
    [{timeoutMs: 99_999_999_999}, 'timeoutMs must be a whole number from 1 to 600000 (got 99999999999)'],
    [{attempts: 0}, 'attempts must be a whole number from 1 to 20 (got 0)'],
    [{maxPages: 1.5}, 'maxPages must be a whole number from 1 to 1000000 (got 1.5)'],
  ] as const) {
    await assert.rejects(crawl('http://127.0.0.1:9/', options), {name: 'UsageError', message});
  }
});

test("the site's root is the locale's alternate one segment up, never another site's alternate", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-locale-'));
  const alternates =
    '<link rel=alternate hreflang=en href="https://x.example/product/"><link rel=alternate hreflang=de href="https://x.example/product/de/">' +
    '<link rel=alternate hreflang=fr href="https://x.example/">';
  try {
    await writeFile(
      path.join(dir, 'index.html'),
      `<!doctype html><html><head><title>Start</title><link rel=canonical href="https://x.example/product/de/">${alternates}</head><body><main><h1>Start</h1><p>Willkommen.</p></main></body></html>`,
    );
    const result = await crawl(dir, {baseUrl: 'https://m.example/'});
    assert.deepEqual(pagesOf(result.records), ['https://m.example/de/']);
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});
