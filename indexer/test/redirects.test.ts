/**
 * Redirect pages: what @docusaurus/plugin-client-redirects writes for each old path
 * (a meta refresh and a canonical link to the target), and the other shapes of a redirect (and
 * a page whose canonical link names another page: its duplicate), give no records, never take their target's place, whatever their order on disk, and are reported
 * as skipped `redirect`, in folder and URL mode; `push` of such a build deletes nothing.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {cp, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {crawl, type CrawlResult} from '../src/crawl/crawl.ts';
import {extractPageDetailed, refreshUrl} from '../src/extract/extract.ts';
import {startFakeAlgolia} from './fake-algolia.ts';
import {fixture, runCli, serveFolder} from './helpers.ts';

const MINI = fixture('mini-site');

/** The page @docusaurus/plugin-client-redirects 3.x writes for a redirect (its template, filled in). */
export const clientRedirectPage = (to: string): string => `<!DOCTYPE html>
<html>
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="refresh" content="0; url=${to}">
    <link rel="canonical" href="${to}" />
  </head>
  <script>
    window.location.href = '${to}' + window.location.search + window.location.hash;
  </script>
</html>`;

/** mini-site plus redirect pages of every shape, some sorting before their target, some after. */
async function siteWithRedirects(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'redirects-'));
  await cp(MINI, dir, {recursive: true});
  const write = async (file: string, html: string): Promise<void> => {
    await mkdir(path.dirname(path.join(dir, file)), {recursive: true});
    await writeFile(path.join(dir, file), html);
  };
  // Sorts before /docs/intro, in a folder of its own (trailingSlash undefined writes index.html).
  await write('docs/getting-started-old/index.html', clientRedirectPage('/docs/intro'));
  await write('docs/a-intro.html', clientRedirectPage('/docs/intro'));
  // Sorts after its target; an absolute URL on the site's host.
  await write('docs/zz-setup.html', clientRedirectPage('https://mini.example.org/docs/guide/setup'));
  // A meta refresh without canonical, with a body of its own.
  await write('docs/moved.html', `<!doctype html><html><head><meta http-equiv="Refresh" content="0;URL='/docs/intro#next'"><title>Moved</title></head><body><main><h1>Moved</h1><p>You are being redirected to the introduction.</p></main></body></html>`);
  // A canonical link alone, to another page of the site: a duplicate of that page, never in its place.
  await write('docs/copy.html', `<!doctype html><html><head><title>Copy</title><link rel=canonical href=https://mini.example.org/docs/guide/setup></head><body><main><h1>Copy</h1><p>The same text elsewhere.</p></main></body></html>`);
  return dir;
}

const redirectsOf = (result: CrawlResult): string[] =>
  result.skippedPages.filter((p) => p.reason === 'redirect').map((p) => `${p.url} ${p.detail ?? ''}`);

const EXPECTED_REDIRECTS = [
  'https://mini.example.org/docs/a-intro to https://mini.example.org/docs/intro',
  'https://mini.example.org/docs/getting-started-old/ to https://mini.example.org/docs/intro',
  'https://mini.example.org/docs/moved to https://mini.example.org/docs/intro',
  'https://mini.example.org/docs/zz-setup to https://mini.example.org/docs/guide/setup',
];

test('redirect pages give no records and never displace their target (folder crawl, any order on disk)', async () => {
  const dir = await siteWithRedirects();
  try {
    const plain = await crawl(MINI);
    for (const concurrency of [1, 8]) {
      const result = await crawl(dir, {concurrency});
      assert.equal(JSON.stringify(result.records), JSON.stringify(plain.records), 'the records are those of the build without redirects');
      assert.deepEqual(redirectsOf(result), EXPECTED_REDIRECTS);
      // The page whose canonical names another page is that page's duplicate, under its own URL.
      assert.deepEqual(
        result.skippedPages.filter((p) => p.reason === 'duplicate'),
        [{url: 'https://mini.example.org/docs/copy', reason: 'duplicate', detail: 'same page as https://mini.example.org/docs/guide/setup'}],
      );
    }
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('redirect pages give no records in a URL crawl either', async () => {
  const dir = await siteWithRedirects();
  // A sitemap that names the old paths too (before their targets, for some).
  const old = ['docs/a-intro', 'docs/copy', 'docs/getting-started-old/', 'docs/moved', 'docs/zz-setup'];
  await writeFile(
    path.join(dir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
      [...old.slice(0, 3), '', 'docs/intro', 'docs/guide/setup', ...old.slice(3)].map((p) => `<url><loc>https://mini.example.org/${p}</loc><priority>${p === 'docs/intro' ? '0.8' : '0.5'}</priority></url>`).join('') +
      '</urlset>',
  );
  const site = await serveFolder(dir);
  try {
    const plain = await crawl(MINI);
    const result = await crawl(site.url, {concurrency: 4});
    assert.equal(JSON.stringify(result.records), JSON.stringify(plain.records));
    assert.deepEqual(redirectsOf(result), EXPECTED_REDIRECTS);
    assert.deepEqual(result.skippedPages.filter((p) => p.reason === 'duplicate').map((p) => p.url), ['https://mini.example.org/docs/copy']);
  } finally {
    await site.close();
    await rm(dir, {recursive: true, force: true});
  }
});

test('a redirect page linked from a page of the site is reported as a redirect in a URL crawl', async () => {
  const dir = await siteWithRedirects();
  // The home page links to the old path.
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html lang=en><head><title>Mini</title><link rel=canonical href=https://mini.example.org/></head><body><main><h1>Mini</h1><p>Start with <a href=/docs/getting-started-old/>the old introduction</a>.</p></main></body></html>`,
  );
  const site = await serveFolder(dir, {hideSitemap: true});
  try {
    const result = await crawl(site.url);
    assert.deepEqual(redirectsOf(result), ['https://mini.example.org/docs/getting-started-old/ to https://mini.example.org/docs/intro']);
    assert.ok(result.records.some((r) => r.url_without_anchor === 'https://mini.example.org/docs/intro'), 'the target is indexed');
  } finally {
    await site.close();
    await rm(dir, {recursive: true, force: true});
  }
});

test('what a redirect is: a refresh to another page (a canonical to another page: a duplicate); a refresh of the page itself or with no URL is not', () => {
  const site = {root: 'https://x.example/', base: 'https://x.example/'};
  const page = (head: string): string => `<html><head>${head}</head><body><main><h1>T</h1><p>Text</p></main></body></html>`;
  const skip = (head: string, url = 'https://x.example/a'): string | undefined => {
    const r = extractPageDetailed(page(head), {url, site});
    return r.skipped ? `${r.skipped} ${r.detail ?? ''}` : undefined;
  };
  assert.equal(skip('<meta http-equiv=refresh content="0; url=/b">'), 'redirect to https://x.example/b');
  assert.equal(skip('<meta http-equiv=refresh content="3;url=https://elsewhere.example/">'), 'redirect to https://elsewhere.example/');
  assert.equal(skip('<meta http-equiv=refresh content="30">'), undefined);
  assert.equal(skip('<meta http-equiv=refresh content="0; url=/a/">'), undefined);
  assert.equal(skip('<meta http-equiv=refresh content="0; url=/a#top">'), undefined);
  assert.equal(skip('<link rel=canonical href=/a/>', 'https://x.example/a'), undefined);
  assert.equal(skip('<link rel=canonical href=https://other.example/b>'), undefined, 'a canonical off the site is no redirect');
  assert.equal(skip('<LINK REL=CANONICAL HREF=/b>'), 'duplicate same page as https://x.example/b');
  assert.equal(skip('<link rel=canonical href=/a.html>'), undefined);
  assert.equal(refreshUrl('0;URL=\'/x\''), '/x');
  assert.equal(refreshUrl('5, /y'), '/y');
  assert.equal(refreshUrl('url=/z'), undefined, 'no delay: not a refresh the standard accepts');
});

test('push of a build with redirect pages against the previous build deletes nothing', async () => {
  const dir = await siteWithRedirects();
  const fake = await startFakeAlgolia();
  const env = {
    ALGOLIA_APP_ID: fake.appId,
    ALGOLIA_ADMIN_API_KEY: fake.apiKey,
    ALGOLIA_INDEX_NAME: 'docs',
    ALGOLIA_HOSTS: fake.url,
    DOCS_INDEXER_TIMEOUT_MS: '1500',
    DOCS_INDEXER_RETRY_DELAY_MS: '5',
    CI: 'true',
  };
  try {
    const first = await runCli(['push', MINI, '--json'], env);
    assert.equal(first.code, 0, first.stderr);
    const before = fake.records('docs').length;
    const second = await runCli(['push', dir, '--json'], env);
    assert.equal(second.code, 0, second.stderr);
    const summary = JSON.parse(second.stdout) as {added: number; updated: number; deleted: number};
    assert.deepEqual([summary.added, summary.updated, summary.deleted], [0, 0, 0]);
    assert.equal(fake.records('docs').length, before);
    assert.match(second.stderr, /skipped https:\/\/mini\.example\.org\/docs\/getting-started-old\/: redirect \(to https:\/\/mini\.example\.org\/docs\/intro\)\n/);
  } finally {
    await fake.close();
    await rm(dir, {recursive: true, force: true});
  }
});
