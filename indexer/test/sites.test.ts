/**
 * Real Docusaurus 3 builds (test/sites/<name>/html, made by test/sites/build.ts): each is
 * crawled as a folder and over HTTP, served the way GitHub Pages serves a build, and both
 * crawls must give the same records byte for byte (issue 13).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type Server} from 'node:http';
import {readFile, stat} from 'node:fs/promises';
import type {AddressInfo} from 'node:net';
import path from 'node:path';
import {crawl, type CrawlResult} from '../src/crawl/crawl.ts';
import type {SearchRecord} from 'docs-search/record';
import {here} from './helpers.ts';

const siteHtml = (name: string): string => path.join(here, 'sites', name, 'html');

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves a build below `basePath` as GitHub Pages does: `/a` → `a.html`, else a redirect to
 * `/a/` when `a/index.html` exists; `/a/` → `a/index.html`; anything else → 404.html, status 404.
 */
async function serveBuild(folder: string, basePath: string): Promise<{url: string; requests: string[]; close(): Promise<void>}> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      requests.push(pathname);
      const send = async (file: string, status = 200): Promise<void> => {
        const type = file.endsWith('.xml') ? 'application/xml' : 'text/html; charset=utf-8';
        res.writeHead(status, {'content-type': type}).end(await readFile(file));
      };
      const inside = pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname === basePath.slice(0, -1) ? null : undefined;
      if (inside === null) {
        res.writeHead(301, {location: basePath}).end();
        return;
      }
      if (inside !== undefined) {
        const file = path.join(folder, inside);
        if (inside === '' || inside.endsWith('/')) {
          if (await isFile(path.join(file, 'index.html'))) return send(path.join(file, 'index.html'));
        } else if (await isFile(file)) {
          return send(file);
        } else if (await isFile(`${file}.html`)) {
          return send(`${file}.html`);
        } else if (await isFile(path.join(file, 'index.html'))) {
          res.writeHead(301, {location: `${pathname}/`}).end();
          return;
        }
      }
      await send(path.join(folder, '404.html'), 404);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {url: `http://127.0.0.1:${port}${basePath}`, requests, close: () => new Promise((resolve) => server.close(() => resolve()))};
}

async function bothWays(name: string, basePath: string): Promise<{folder: CrawlResult; web: CrawlResult; records: SearchRecord[]}> {
  const folder = await crawl(siteHtml(name));
  const site = await serveBuild(siteHtml(name), basePath);
  try {
    const web = await crawl(site.url);
    assert.equal(web.failed, 0, JSON.stringify(web.skippedPages));
    assert.equal(JSON.stringify(web.records), JSON.stringify(folder.records), `${name}: the folder and the URL crawls differ`);
    return {folder, web, records: folder.records};
  } finally {
    await site.close();
  }
}

const pagesOf = (records: SearchRecord[]): string[] => [...new Set(records.map((r) => r.url_without_anchor))];
const text = (records: SearchRecord[]): string => records.map((r) => `${Object.values(r.hierarchy).join(' ')} ${r.content ?? ''}`).join('\n');
const lvl0Of = (records: SearchRecord[], url: string): string | undefined => records.find((r) => r.url_without_anchor === url)?.hierarchy.lvl0;

test('versioned docs and a blog (trailingSlash undefined): the same records from the folder and from the URL', async () => {
  const {records} = await bothWays('versioned-blog', '/');
  const origin = 'https://versioned.example.com';
  const pages = pagesOf(records);
  // The canonical URLs: no trailing slash, although the files are docs/intro/index.html.
  for (const page of ['/docs/intro', '/docs/1.0/intro', '/docs/errors/404', '/blog/2024/04/01/second-post', '/about', '/']) {
    assert.ok(pages.includes(`${origin}${page}`), `${page} in ${pages.join(' ')}`);
  }
  assert.ok(pages.every((p) => p === `${origin}/` || !p.endsWith('/')), pages.join(' '));
  // lvl0: sidebar category for docs, the active navbar item elsewhere, Home for the home page.
  assert.equal(lvl0Of(records, `${origin}/docs/guide/setup`), 'Getting started');
  assert.equal(lvl0Of(records, `${origin}/blog/2024/04/01/second-post`), 'Journal');
  assert.equal(lvl0Of(records, `${origin}/blog/archive`), 'Journal');
  assert.equal(lvl0Of(records, `${origin}/about`), 'About us');
  assert.equal(lvl0Of(records, `${origin}/`), 'Home');
  // Versions are facets.
  assert.deepEqual([...new Set(records.map((r) => r.version).filter(Boolean))].sort(), ['1.0', 'current']);
  const all = text(records);
  // Content after headings that name <svg> and <script>.
  assert.match(all, /this paragraph must still be indexed/);
  assert.match(all, /Readers search for this sentence too/);
  assert.match(all, /the words after the heading count/);
  // Chrome stays out: category cards, bylines (date, reading time, author), default admonition titles.
  assert.doesNotMatch(all, /📄️|🗃️/);
  assert.doesNotMatch(all, /min read|Ada Example|Firmware engineer/);
  // The version banner of an older version is chrome too.
  assert.doesNotMatch(all, /This is documentation for|no longer actively maintained/);
  assert.ok(!records.some((r) => r.content === 'note'), 'default admonition title');
  assert.ok(records.some((r) => r.content === 'Pairing hint'), 'custom admonition title');
});

test('two locales below baseUrl /docs-site/ (trailingSlash false): every locale, the same records both ways', async () => {
  const {records, web} = await bothWays('two-locales', '/docs-site/');
  const origin = 'https://locales.example.com/docs-site';
  const pages = pagesOf(records);
  for (const page of ['/docs/intro', '/fr/docs/intro', '/blog/2024/05/01/hello', '/fr/blog/2024/05/01/hello', '/fr/', '/']) {
    assert.ok(pages.includes(`${origin}${page}`), `${page} in ${pages.join(' ')}`);
  }
  assert.deepEqual([...new Set(records.map((r) => r.language))].sort(), ['en', 'fr']);
  assert.equal(lvl0Of(records, `${origin}/fr/blog/2024/05/01/hello`), 'Actualités');
  assert.equal(lvl0Of(records, `${origin}/blog/2024/05/01/hello`), 'News');
  assert.equal(lvl0Of(records, `${origin}/fr/`), 'Home');
  const all = text(records);
  assert.match(all, /Gardez le compteur au sec/);
  assert.ok(!records.some((r) => r.content === 'attention' || r.content === 'warning'), 'default titles in both locales');
  assert.doesNotMatch(all, /Bo Example|Rédacteur|min read|min de lecture/);
  assert.equal(web.mode, 'sitemap');
});

test('docs at the site root (trailingSlash true): the same records both ways', async () => {
  const {records} = await bothWays('docs-root', '/');
  const pages = pagesOf(records);
  assert.deepEqual(pages, ['https://root.example.com/', 'https://root.example.com/reference/endpoints/']);
  assert.equal(lvl0Of(records, 'https://root.example.com/reference/endpoints/'), 'Reference');
});

test('one locale crawled on its own (its folder or its URL) keeps its locale path under --base-url', async () => {
  const fr = path.join(siteHtml('two-locales'), 'fr');
  const all = await crawl(siteHtml('two-locales'));
  const french = all.records.filter((r) => r.language === 'fr');
  const moved = (records: SearchRecord[]): string[] => records.map((r) => r.url.replace('https://locales.example.com/docs-site/', 'https://mirror.example.net/'));
  // Without --base-url: the canonical URLs, as in the crawl of the whole build.
  assert.deepEqual((await crawl(fr)).records, french);
  const folder = await crawl(fr, {baseUrl: 'https://mirror.example.net/'});
  assert.deepEqual(folder.records.map((r) => r.url), moved(french));
  assert.ok(folder.records.every((r) => r.url.startsWith('https://mirror.example.net/fr/')), 'the French pages keep /fr/');
  const site = await serveBuild(siteHtml('two-locales'), '/docs-site/');
  try {
    const web = await crawl(`${site.url}fr/`, {baseUrl: 'https://mirror.example.net/'});
    assert.equal(JSON.stringify(web.records), JSON.stringify(folder.records), 'the folder and the URL crawls of the locale differ');
  } finally {
    await site.close();
  }
});

test('plugins most sites add (client-redirects, a second docs instance, unlisted and draft docs, the sitemap): indexed page for page', async () => {
  const {folder, web, records} = await bothWays('plugins', '/');
  const origin = 'https://plugins.example.com';
  // Every page a reader finds, once: no redirect page, no unlisted or draft doc, no 404.
  assert.deepEqual(pagesOf(records), [`${origin}/`, `${origin}/community/`, `${origin}/community/support`, `${origin}/docs/guide/install`, `${origin}/docs/intro`]);
  const reasons = (result: CrawlResult): string[] => result.skippedPages.map((p) => `${p.reason} ${p.url}${p.detail ? ` ${p.detail}` : ''}`);
  // The redirects `from` several old paths, one of them sorting before its target (a-first-steps < intro).
  assert.deepEqual(reasons(folder).filter((r) => r.startsWith('redirect')), [
    `redirect ${origin}/docs/a-first-steps/ to ${origin}/docs/intro`,
    `redirect ${origin}/docs/getting-started-old/ to ${origin}/docs/intro`,
    `redirect ${origin}/docs/guide/setup-old/ to ${origin}/docs/guide/install`,
    `redirect ${origin}/help/ to ${origin}/community/support`,
    `redirect ${origin}/start/ to ${origin}/docs/intro`,
  ]);
  assert.ok(reasons(folder).includes(`noindex ${origin}/docs/secret`), 'the unlisted doc is built noindex and skipped');
  assert.ok(!reasons(folder).some((r) => r.startsWith('duplicate')), reasons(folder).join('\n'));
  assert.ok(!reasons(web).some((r) => r.startsWith('duplicate')), reasons(web).join('\n'));
  // The introduction is itself: its title and text, not a redirect page's.
  const intro = records.filter((r) => r.url_without_anchor === `${origin}/docs/intro`);
  assert.equal(intro[0]?.hierarchy.lvl1, 'Introduction');
  assert.ok(intro.some((r) => r.content?.includes('Every reading carries a timestamp')));
  // The second docs instance, without a sidebar: its pages' lvl0 is the docs default.
  assert.equal(lvl0Of(records, `${origin}/community/support`), 'Documentation');
  assert.doesNotMatch(text(records), /Work in progress|Unlisted notes|reachable by their URL only/);
});

test('push of the plugins build against the same build without its redirect pages deletes nothing', async () => {
  const {startFakeAlgolia} = await import('./fake-algolia.ts');
  const {runCli} = await import('./helpers.ts');
  const {cp, rm, mkdtemp} = await import('node:fs/promises');
  const {tmpdir} = await import('node:os');
  const before = await mkdtemp(path.join(tmpdir(), 'plugins-before-'));
  const fake = await startFakeAlgolia();
  const env = {
    ALGOLIA_APP_ID: fake.appId,
    ALGOLIA_ADMIN_API_KEY: fake.apiKey,
    ALGOLIA_INDEX_NAME: 'docs',
    ALGOLIA_HOSTS: fake.url,
    DOCS_INDEXER_TIMEOUT_MS: '2000',
    DOCS_INDEXER_RETRY_DELAY_MS: '5',
    CI: 'true',
  };
  try {
    await cp(siteHtml('plugins'), before, {recursive: true});
    for (const old of ['docs/a-first-steps', 'docs/getting-started-old', 'docs/guide/setup-old', 'help', 'start']) await rm(path.join(before, old), {recursive: true});
    const first = await runCli(['push', before, '--json'], env);
    assert.equal(first.code, 0, first.stderr);
    const live = fake.records('docs').length;
    const second = await runCli(['push', siteHtml('plugins'), '--json'], env);
    assert.equal(second.code, 0, second.stderr);
    const summary = JSON.parse(second.stdout) as {added: number; updated: number; deleted: number; unchanged: number};
    assert.deepEqual([summary.added, summary.updated, summary.deleted, summary.unchanged], [0, 0, 0, live]);
  } finally {
    await fake.close();
    await rm(before, {recursive: true, force: true});
  }
});

const reasonsOf = (result: CrawlResult): string[] => result.skippedPages.map((p) => `${p.reason} ${p.url}${p.detail ? ` (${p.detail})` : ''}`);

test("the blog's and the docs' listing pages (post lists, tags, authors) are skipped as list-page; its posts and the archive are indexed", async () => {
  const {folder, web, records} = await bothWays('versioned-blog', '/');
  const origin = 'https://versioned.example.com';
  const lists = [
    `list-page ${origin}/blog (blog post list)`,
    `list-page ${origin}/blog/authors (blog authors)`,
    `list-page ${origin}/blog/tags (blog tags)`,
    `list-page ${origin}/blog/tags/battery (a blog tag's posts)`,
    `list-page ${origin}/blog/tags/firmware (a blog tag's posts)`,
  ];
  assert.deepEqual(reasonsOf(folder).filter((r) => r.startsWith('list-page')), lists);
  assert.deepEqual(reasonsOf(web).filter((r) => r.startsWith('list-page')), lists);
  // Each post once, on its own page; the archive (titles only, Docusaurus's search tag `default`) is a page.
  assert.deepEqual(
    pagesOf(records).filter((p) => p.startsWith(`${origin}/blog`)),
    [`${origin}/blog/2024/03/01/first-post`, `${origin}/blog/2024/04/01/second-post`, `${origin}/blog/archive`],
  );
  const {records: locales} = await bothWays('two-locales', '/docs-site/');
  const localeOrigin = 'https://locales.example.com/docs-site';
  assert.deepEqual(
    pagesOf(locales).filter((p) => p.includes('/blog')),
    [`${localeOrigin}/blog/2024/05/01/hello`, `${localeOrigin}/blog/archive`, `${localeOrigin}/fr/blog/2024/05/01/hello`, `${localeOrigin}/fr/blog/archive`],
  );
});

test('versioned docs with an unreleased (next) and an unmaintained version: each version page once, with its version, no banner', async () => {
  const {folder, records} = await bothWays('versions', '/');
  const origin = 'https://versions.example.com';
  assert.deepEqual(pagesOf(records), [
    `${origin}/`,
    `${origin}/docs/1.0/intro`,
    `${origin}/docs/intro`,
    `${origin}/docs/next/intro`,
    `${origin}/docs/next/setup`,
    `${origin}/docs/setup`,
  ]);
  // Each page's records carry its own version, and its own text.
  const versionOf = (url: string): string[] => [...new Set(records.filter((r) => r.url_without_anchor === url).map((r) => r.version ?? ''))];
  assert.deepEqual(versionOf(`${origin}/docs/next/intro`), ['current']);
  assert.deepEqual(versionOf(`${origin}/docs/intro`), ['2.0']);
  assert.deepEqual(versionOf(`${origin}/docs/1.0/intro`), ['1.0']);
  const textOf = (url: string): string => text(records.filter((r) => r.url_without_anchor === url));
  assert.match(textOf(`${origin}/docs/next/intro`), /websocket subscription/);
  assert.match(textOf(`${origin}/docs/intro`), /polling endpoint/);
  assert.match(textOf(`${origin}/docs/1.0/intro`), /legacy data request/);
  // The banners and the version badge are chrome.
  assert.doesNotMatch(text(records), /unreleased documentation|no longer actively maintained|This is documentation for|latest version|Version: /);
  // The docs' tags pages of every version list their docs again: skipped.
  assert.deepEqual(
    reasonsOf(folder).filter((r) => r.startsWith('list-page')).map((r) => r.replace(/ \(.*\)$/, '')),
    [
      `list-page ${origin}/docs/1.0/tags`,
      `list-page ${origin}/docs/1.0/tags/meter`,
      `list-page ${origin}/docs/next/tags`,
      `list-page ${origin}/docs/next/tags/meter`,
      `list-page ${origin}/docs/next/tags/network`,
      `list-page ${origin}/docs/tags`,
      `list-page ${origin}/docs/tags/meter`,
      `list-page ${origin}/docs/tags/network`,
    ],
  );
});

test('@docusaurus/plugin-pwa: its service worker and manifest give no records, and the URL crawl does not fetch them as pages', async () => {
  const {folder, records} = await bothWays('pwa', '/');
  const origin = 'https://pwa.example.com';
  assert.deepEqual(pagesOf(records), [`${origin}/`, `${origin}/docs/intro`, `${origin}/docs/offline`]);
  assert.deepEqual(reasonsOf(folder), [`not-found ${origin}/404.html`]);
  const site = await serveBuild(siteHtml('pwa'), '/');
  try {
    const web = await crawl(site.url);
    assert.equal(JSON.stringify(web.records), JSON.stringify(records));
    assert.deepEqual(site.requests.filter((r) => /sw\.js|manifest|\.json$/.test(r)), []);
  } finally {
    await site.close();
  }
  assert.doesNotMatch(text(records), /New version available|Refresh|offline mode|workbox/i);
});

test('@docusaurus/plugin-ideal-image: the image page is indexed once, its text without the image component\'s messages', async () => {
  const {records} = await bothWays('ideal-image', '/');
  const origin = 'https://images.example.com';
  assert.deepEqual(pagesOf(records), [`${origin}/`, `${origin}/docs/display`, `${origin}/docs/intro`]);
  const display = text(records.filter((r) => r.url_without_anchor === `${origin}/docs/display`));
  assert.match(display, /power drawn right now/);
  assert.match(display, /day's total in kilowatt-hours/);
  assert.doesNotMatch(display, /Click to load|Loading\.\.\.|browser is offline|Error\. Click|404\. Image not found/);
});
