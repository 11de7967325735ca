/**
 * Robots directives as the standard reads them (metas and the X-Robots-Tag header),
 * a file name that is not UTF-8 (one skipped page, not a failed crawl), and a crawl whose only
 * page is skipped saying why.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {cp, mkdtemp, readdir, rm, writeFile} from 'node:fs/promises';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {crawl} from '../src/crawl/crawl.ts';
import {extractPageDetailed} from '../src/extract/extract.ts';
import {xRobotsTagNoindex} from '../src/extract/robots.ts';
import {SourceError} from '../src/errors.ts';
import {fixture, runCli} from './helpers.ts';

const MINI = fixture('mini-site');
const page = (head: string): string => `<!doctype html><html><head><title>T</title>${head}</head><body><main><h1>T</h1><p>Text</p></main></body></html>`;
const skipOf = (head: string): string | undefined => extractPageDetailed(page(head), {url: 'https://x.example/a'}).skipped;

test('robots metas: case-insensitive, none, several (the most restrictive wins), per-agent metas', () => {
  assert.equal(skipOf('<META NAME="ROBOTS" CONTENT="NOINDEX, follow">'), 'noindex');
  assert.equal(skipOf('<meta name="Robots" content="NoIndex">'), 'noindex');
  assert.equal(skipOf('<meta name="robots" content="none">'), 'noindex');
  assert.equal(skipOf('<meta name="robots" content="index, follow"><meta name="robots" content="noindex">'), 'noindex');
  assert.equal(skipOf('<meta name="robots" content="noindex"><meta name="robots" content="index">'), 'noindex');
  assert.equal(skipOf('<meta name="robots" content="max-snippet:-1, nofollow">'), undefined);
  assert.equal(skipOf('<meta name="robots" content="noindexed">'), undefined, 'a directive is a whole token');
  // Addressed to another crawler: not ours (README, "Crawling a Docusaurus 3 site").
  assert.equal(skipOf('<meta name="googlebot" content="noindex">'), undefined);
  assert.equal(skipOf('<meta name="docs-indexer" content="noindex">'), 'noindex');
});

test('X-Robots-Tag: noindex or none for every crawler or for docs-indexer; another agent\'s directives are not ours', () => {
  assert.equal(xRobotsTagNoindex('noindex'), true);
  assert.equal(xRobotsTagNoindex('NONE'), true);
  assert.equal(xRobotsTagNoindex('nofollow, noindex'), true);
  assert.equal(xRobotsTagNoindex('googlebot: noindex, nofollow'), false);
  assert.equal(xRobotsTagNoindex('googlebot: noindex, docs-indexer: noindex'), true);
  assert.equal(xRobotsTagNoindex('unavailable_after: 25 Jun 2010 15:00:00 PST'), false);
  assert.equal(xRobotsTagNoindex('unavailable_after: 25 Jun 2010, noindex'), true);
  assert.equal(xRobotsTagNoindex(null), false);
});

test('a URL crawl skips a page served with X-Robots-Tag: noindex (its links still followed)', async () => {
  const {readFile} = await import('node:fs/promises');
  const server = createServer((req, res) => {
    void (async () => {
      const pathname = new URL(req.url ?? '/', 'http://x').pathname;
      const file = pathname === '/' ? 'index.html' : pathname === '/sitemap.xml' ? 'sitemap.xml' : `${pathname.slice(1)}.html`;
      try {
        const body = await readFile(path.join(MINI, file));
        const headers: Record<string, string> = {'content-type': file.endsWith('.xml') ? 'application/xml' : 'text/html; charset=utf-8'};
        if (pathname === '/docs/intro') headers['x-robots-tag'] = 'NoIndex';
        res.writeHead(200, headers).end(body);
      } catch {
        res.writeHead(404).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const result = await crawl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const pages = [...new Set(result.records.map((r) => r.url_without_anchor))];
    assert.ok(!pages.includes('https://mini.example.org/docs/intro'), pages.join(' '));
    assert.ok(pages.includes('https://mini.example.org/docs/guide/setup'));
    assert.ok(result.skippedPages.some((p) => p.reason === 'noindex' && p.url === 'https://mini.example.org/docs/intro' && p.detail === 'X-Robots-Tag'));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a page whose file name is not UTF-8 is one skipped page with an escaped warning, not a failed crawl', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'bad-name-'));
  try {
    await cp(MINI, dir, {recursive: true});
    const bad = Buffer.concat([Buffer.from(path.join(dir, 'docs', 'caf')), Buffer.from([0xe9]), Buffer.from('.html')]);
    try {
      await writeFile(bad, page(''));
    } catch (error) {
      t.skip(`this file system refuses names that are not UTF-8 (${(error as NodeJS.ErrnoException).code})`);
      return;
    }
    const badFolder = Buffer.concat([Buffer.from(path.join(dir, 'docs', 'old')), Buffer.from([0xff])]);
    const {mkdir} = await import('node:fs/promises');
    await mkdir(badFolder);
    await writeFile(Buffer.concat([badFolder, Buffer.from('/index.html')]), page(''));
    assert.equal((await readdir(path.join(dir, 'docs'))).length, 5);
    const plain = await crawl(MINI);
    const result = await crawl(dir);
    assert.equal(JSON.stringify(result.records), JSON.stringify(plain.records));
    const bads = result.skippedPages.filter((p) => p.reason === 'bad-file-name').map((p) => p.detail);
    assert.deepEqual(bads.sort(), [
      `docs${path.sep}caf\\xE9.html: its name is not UTF-8`,
      `docs${path.sep}old\\xFF: a folder whose name is not UTF-8 (its pages were not read)`,
    ]);
    const run = await runCli(['crawl', dir, '--out', path.join(dir, 'records.json')], {CI: 'true'});
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /skipped https:\/\/mini\.example\.org\/docs\/caf%EF%BF%BD: bad-file-name \(docs\/caf\\xE9\.html: its name is not UTF-8\)\n/);
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('a build whose only page is skipped says why it found no pages', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'only-page-'));
  try {
    await writeFile(path.join(dir, 'index.html'), page('<meta name=robots content=noindex><link rel=canonical href=https://only.example/>'));
    await assert.rejects(crawl(dir), (error: unknown) => {
      assert.ok(error instanceof SourceError);
      assert.equal(error.message, `the crawl of ${dir} found no pages to index: its only page was skipped (https://only.example/: noindex)`);
      return true;
    });
    await writeFile(path.join(dir, 'other.html'), page('<meta name=robots content=none>'));
    await assert.rejects(crawl(dir), /found no pages to index: all 2 pages were skipped \(2 noindex; e\.g\. https:\/\/only\.example\/: noindex\)$/);
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});
