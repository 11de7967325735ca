/**
 * Ctrl-C (SIGINT) and SIGTERM in every phase of `crawl` and `push` (issue 29): the run stops,
 * removes its temporary files, prints one line and exits 1, as the README's exit-code table says.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {createServer} from 'node:http';
import {mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {AddressInfo} from 'node:net';
import type {Socket} from 'node:net';
import {startFakeAlgolia} from './fake-algolia.ts';
import {bigBuild, bin, fixture, startCli, until, type RunningCli} from './helpers.ts';

const start = (args: string[], env: NodeJS.ProcessEnv = {}): RunningCli => startCli(args, env);

/** A site whose home page links to pages that never answer: a URL crawl stays in its fetch phase. */
async function hangingSite(): Promise<{url: string; held: () => number; close: () => Promise<void>}> {
  const home = await readFile(path.join(fixture('mini-site'), 'index.html'));
  const sockets = new Set<Socket>();
  let held = 0;
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname === '/') res.writeHead(200, {'content-type': 'text/html'}).end(home);
    else if (pathname === '/sitemap.xml') res.writeHead(404).end();
    else held += 1; // never answered
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    held: () => held,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

test('SIGINT during a URL crawl --out FILE: exit 1, one line, FILE as it was and no temporary file', async () => {
  const site = await hangingSite();
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-signal-'));
  try {
    const out = path.join(dir, 'records.json');
    await writeFile(out, 'the previous records');
    const run = start(['crawl', site.url, '--out', out]);
    await until(() => site.held() > 0);
    run.child.kill('SIGINT');
    const {code, stderr, stdout} = await run.result;
    assert.deepEqual([code, stderr, stdout], [1, `docs-indexer: interrupted; ${out} was left as it was\n`, '']);
    assert.deepEqual(await readdir(dir), ['records.json']);
    assert.equal(await readFile(out, 'utf8'), 'the previous records');
  } finally {
    await site.close();
    await rm(dir, {recursive: true, force: true});
  }
});

test('SIGTERM during a URL crawl to stdout: exit 1, one line, nothing on stdout, its temporary folder removed', async () => {
  const site = await hangingSite();
  const tmp = await mkdtemp(path.join(tmpdir(), 'indexer-signal-tmp-'));
  try {
    const run = start(['crawl', site.url], {TMPDIR: tmp});
    await until(async () => site.held() > 0 && (await readdir(tmp)).length > 0);
    run.child.kill('SIGTERM');
    const {code, stderr, stdout} = await run.result;
    assert.deepEqual([code, stderr, stdout], [1, 'docs-indexer: interrupted; no records were written\n', '']);
    assert.deepEqual(await readdir(tmp), [], 'no docs-indexer-* folder left');
  } finally {
    await site.close();
    await rm(tmp, {recursive: true, force: true});
  }
});

test('SIGTERM and SIGINT during a folder crawl --out FILE: exit 1, one line, no FILE and no FILE.PID.tmp', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-signal-folder-'));
  try {
    const build = await bigBuild(dir, 3000);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const out = path.join(dir, 'records.json');
      const run = start(['crawl', build, '--out', out, '--concurrency', '1']);
      await until(async () => (await readdir(dir)).some((name) => name.endsWith('.tmp')));
      run.child.kill(signal);
      const {code, stderr} = await run.result;
      assert.deepEqual([code, stderr], [1, `docs-indexer: interrupted; ${out} was left as it was\n`], signal);
      assert.deepEqual(await readdir(dir), ['build'], `${signal}: no records.json and no temporary file`);
    }
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test("SIGTERM during push's crawl: exit 1, one line, no Algolia request and no index", async () => {
  const site = await hangingSite();
  const fake = await startFakeAlgolia();
  try {
    const url = new URL(fake.url);
    const run = start(['push', site.url], {
      ALGOLIA_APP_ID: fake.appId,
      ALGOLIA_ADMIN_API_KEY: fake.apiKey,
      ALGOLIA_INDEX_NAME: 'docs',
      ALGOLIA_HOSTS: `http://${url.host}`,
    });
    await until(() => site.held() > 0);
    run.child.kill('SIGTERM');
    const {code, stderr, stdout} = await run.result;
    assert.deepEqual([code, stderr, stdout], [1, 'docs-indexer: interrupted; the live index "docs" was not changed\n', '']);
    assert.deepEqual(fake.log, []);
    assert.deepEqual(fake.names(), []);
  } finally {
    await fake.close();
    await site.close();
  }
});

test('SIGHUP (a closed terminal) during a folder crawl --out FILE: handled like SIGTERM, no FILE.PID.tmp left', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-sighup-'));
  try {
    const build = await bigBuild(dir, 3000);
    const out = path.join(dir, 'records.json');
    const run = start(['crawl', build, '--out', out, '--concurrency', '1']);
    await until(async () => (await readdir(dir)).some((name) => name.endsWith('.tmp')));
    run.child.kill('SIGHUP');
    const {code, signal, stderr} = await run.result;
    assert.deepEqual([code, signal, stderr], [1, null, `docs-indexer: interrupted; ${out} was left as it was\n`]);
    assert.deepEqual(await readdir(dir), ['build'], 'no records.json and no temporary file');
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('SIGHUP during push, its temporary index filled: the temporary index is deleted, the live index kept', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed('docs', [{objectID: 'old', url: 'https://mini.example.org/old'}], {userData: {docsIndexerBuild: 'docs_tmp_earlier'}});
    const held = fake.gate({step: 'batch'});
    const url = new URL(fake.url);
    const run = start(['push', fixture('mini-site')], {
      ALGOLIA_APP_ID: fake.appId,
      ALGOLIA_ADMIN_API_KEY: fake.apiKey,
      ALGOLIA_INDEX_NAME: 'docs',
      ALGOLIA_HOSTS: `http://${url.host}`,
      DOCS_INDEXER_TIMEOUT_MS: '2000',
      DOCS_INDEXER_RETRY_DELAY_MS: '5',
    });
    await held.reached;
    assert.equal(fake.names().length, 2, 'the temporary index exists');
    run.child.kill('SIGHUP');
    held.release();
    const {code, signal, stderr} = await run.result;
    assert.equal(signal, null, stderr);
    assert.equal(code, 1, stderr);
    assert.match(stderr, /^docs-indexer: interrupted; the live index "docs" was not changed\n$/);
    assert.deepEqual(fake.names(), ['docs'], 'no docs_tmp_* index left');
    assert.deepEqual(fake.records('docs').map((r) => r.objectID), ['old']);
  } finally {
    await fake.close();
  }
});

test('crawl … | head: a reader that closes stdout ends the run with exit 0 and its temporary folder removed', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-epipe-'));
  const tmp = await mkdtemp(path.join(tmpdir(), 'indexer-epipe-tmp-'));
  try {
    const build = await bigBuild(dir, 150);
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, [bin, 'crawl', build], {env: {...process.env, TMPDIR: tmp, CI: 'true'}});
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      // `head -c 100`: read the first chunk, then close the pipe.
      child.stdout.once('data', () => child.stdout.destroy());
      const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
      assert.deepEqual([code, signal, stderr], [0, null, ''], `round ${round}`);
      assert.deepEqual(await readdir(tmp), [], `round ${round}: no docs-indexer-* folder left`);
    }
  } finally {
    await rm(dir, {recursive: true, force: true});
    await rm(tmp, {recursive: true, force: true});
  }
});
