/**
 * Every wait bounded, every signal honoured, nothing left behind.
 * - the wait for an Algolia task has a deadline of its own (DOCS_INDEXER_TASK_TIMEOUT_MS), polled with backoff;
 * - SIGINT, SIGTERM and SIGHUP end that wait within a second, the temporary index deleted and the live one untouched;
 * - the handlers are there before any work (a signal during start-up is one line, exit 1);
 * - a second signal right after the first leaves no FILE.PID.tmp;
 * - an output error (ENOSPC on /dev/full; EIO from stdout, from FILE's writes, from the private
 *   temporary file's) is one line, exit 2, and leaves no temporary file or folder and FILE as it was.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {mkdtemp, open, readdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {startFakeAlgolia, type FakeAlgolia} from './fake-algolia.ts';
import {bigBuild, fixture, runCli, startCli, until, type RunningCli} from './helpers.ts';

const MINI = fixture('mini-site');

/** The CLI as CI runs it. */
const start = (args: string[], env: NodeJS.ProcessEnv = {}, stdout: 'pipe' | number = 'pipe'): RunningCli =>
  startCli(args, {CI: 'true', ...env}, stdout);

function envFor(fake: FakeAlgolia, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ALGOLIA_APP_ID: fake.appId,
    ALGOLIA_ADMIN_API_KEY: fake.apiKey,
    ALGOLIA_INDEX_NAME: 'docs',
    ALGOLIA_HOSTS: fake.url,
    DOCS_INDEXER_TIMEOUT_MS: '2000',
    DOCS_INDEXER_RETRY_DELAY_MS: '5',
    ...extra,
  };
}

const LIVE_RECORD = {objectID: 'old', url: 'https://mini.example.org/old'};
const seedLive = (fake: FakeAlgolia): void => fake.seed('docs', [LIVE_RECORD], {userData: {docsIndexerBuild: 'docs_tmp_earlier'}});

test('a task Algolia never publishes: push stops at DOCS_INDEXER_TASK_TIMEOUT_MS, polling with backoff; temporary index deleted, live kept', async () => {
  const fake = await startFakeAlgolia();
  try {
    seedLive(fake);
    fake.faults.push({step: 'task', fault: 'notPublished'});
    const run = await runCli(['push', MINI], envFor(fake, {DOCS_INDEXER_TASK_TIMEOUT_MS: '600', CI: 'true'}));
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^docs-indexer: copying the live index failed: Algolia had not finished task \d+ after 0\.6 s \(DOCS_INDEXER_TASK_TIMEOUT_MS, default 600 s\); the live index "docs" was not changed\n$/);
    assert.deepEqual(fake.names(), ['docs'], 'the temporary index was deleted');
    assert.deepEqual(fake.records('docs'), [LIVE_RECORD]);
    // Polled with backoff (100, 150, 225… ms): a handful of polls in 0.6 s, not one every few ms.
    const copyPolls = fake.log.filter((r) => r.step === 'task' && r.index !== 'docs' && r.path.includes('/task/')).length;
    assert.ok(copyPolls >= 2 && copyPolls <= 12, `${copyPolls} polls`);
    const bad = await runCli(['push', MINI], envFor(fake, {DOCS_INDEXER_TASK_TIMEOUT_MS: '0'}));
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^docs-indexer: DOCS_INDEXER_TASK_TIMEOUT_MS must be a whole number of milliseconds from 1 to 3600000 \(got "0"\)\n$/);
  } finally {
    await fake.close();
  }
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  test(`${signal} while push waits for a task Algolia never publishes: ends within 1 s, temporary index deleted, live untouched`, async () => {
    const fake = await startFakeAlgolia();
    try {
      seedLive(fake);
      fake.faults.push({step: 'task', fault: 'notPublished'});
      const run = start(['push', MINI], envFor(fake));
      await until(() => fake.log.filter((r) => r.step === 'task').length >= 3);
      const sent = Date.now();
      run.child.kill(signal);
      const {code, signal: killed, stderr} = await run.result;
      const took = Date.now() - sent;
      assert.deepEqual([code, killed, stderr], [1, null, 'docs-indexer: interrupted; the live index "docs" was not changed\n']);
      assert.ok(took < 1000, `ended ${took} ms after ${signal}`);
      assert.deepEqual(fake.names(), ['docs'], 'no docs_tmp_* index left');
      assert.deepEqual(fake.records('docs'), [LIVE_RECORD]);
    } finally {
      await fake.close();
    }
  });
}

test('SIGINT while an Algolia call hangs (its timeout 30 s away) and while a retry waits: ends within 1 s, temporary index deleted', async () => {
  for (const fault of ['timeout', 503] as const) {
    const fake = await startFakeAlgolia();
    try {
      seedLive(fake);
      // Every batch hangs (or fails, and its retry waits 20 s); the cleanup's requests answer.
      fake.faults.push({step: 'batch', fault});
      const run = start(['push', MINI], envFor(fake, {DOCS_INDEXER_TIMEOUT_MS: '30000', DOCS_INDEXER_RETRY_DELAY_MS: '20000'}));
      await until(() => fake.log.some((r) => r.step === 'batch'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const sent = Date.now();
      run.child.kill('SIGINT');
      const {code, stderr} = await run.result;
      const took = Date.now() - sent;
      assert.deepEqual([code, stderr], [1, 'docs-indexer: interrupted; the live index "docs" was not changed\n'], String(fault));
      assert.ok(took < 1000, `${fault}: ended ${took} ms after SIGINT`);
      assert.deepEqual(fake.names(), ['docs'], `${fault}: no docs_tmp_* index left`);
      assert.deepEqual(fake.records('docs'), [LIVE_RECORD]);
    } finally {
      await fake.close();
    }
  }
});

test('a second signal 30 ms after the first ends the run at once and leaves no FILE.PID.tmp', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-second-signal-'));
  try {
    const build = await bigBuild(dir, 2000);
    for (const second of ['SIGINT', 'SIGTERM'] as const) {
      const out = path.join(dir, 'records.json');
      const run = start(['crawl', build, '--out', out, '--concurrency', '1']);
      await until(async () => (await readdir(dir)).some((name) => name.endsWith('.tmp')));
      run.child.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 30));
      run.child.kill(second);
      const {code, stderr} = await run.result;
      assert.equal(code, 1, stderr);
      assert.deepEqual(await readdir(dir), ['build'], `${second}: no records.json and no temporary file`);
    }
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('a signal during start-up, before any work: one line, exit 1, nothing written', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-startup-signal-'));
  try {
    // A module hook that holds the loading of the CLI's main module for 3 s and says so in a
    // file: the signal then falls in the start-up, after the bin began and before any command.
    const marker = path.join(dir, 'loading');
    const hooks = path.join(dir, 'hooks.mjs');
    await writeFile(
      hooks,
      `import {writeFileSync} from 'node:fs';\n` +
        `export async function resolve(specifier, context, next) {\n` +
        `  if (specifier.endsWith('cli/main.js')) { writeFileSync(${JSON.stringify(marker)}, ''); await new Promise((r) => setTimeout(r, 3000)); }\n` +
        `  return next(specifier, context);\n}\n`,
    );
    const preload = path.join(dir, 'preload.mjs');
    await writeFile(preload, `import {register} from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const out = path.join(dir, 'records.json');
    const run = start(['crawl', MINI, '--out', out], {NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`});
    await until(() => existsSync(marker));
    run.child.kill('SIGTERM');
    const {code, signal, stderr} = await run.result;
    assert.deepEqual([signal, code, stderr], [null, 1, 'docs-indexer: interrupted (SIGTERM); stopped at once\n'], 'ended by its handler, not by the signal');
    assert.ok(!existsSync(out));
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('crawl to a full stdout (/dev/full): one line, and no temporary folder left', {skip: !existsSync('/dev/full')}, async () => {
  const tmp = await mkdtemp(path.join(tmpdir(), 'indexer-enospc-tmp-'));
  const full = await open('/dev/full', 'w');
  try {
    const run = start(['crawl', MINI], {TMPDIR: tmp}, full.fd);
    const {code, stderr} = await run.result;
    assert.equal(code, 2, stderr);
    assert.equal(stderr, 'docs-indexer: cannot write to stdout (ENOSPC)\n');
    assert.deepEqual(await readdir(tmp), [], 'no docs-indexer-* folder left');
  } finally {
    await full.close();
    await rm(tmp, {recursive: true, force: true});
  }
});

/**
 * A module run before the CLI (`--import`) that makes one writer fail with EIO, as a failing disk
 * or a terminal whose line dropped does: `stdout` (every write of process.stdout), or `tmp` (every
 * write to a file whose name ends in `.tmp`: FILE.PID.tmp beside --out, or the private records
 * file under TMPDIR). Node's file streams call fs.open and fs.write/fs.writev through the fs
 * module's object, so replacing them there reaches the CLI's writes.
 */
async function eioPreload(dir: string, writer: 'stdout' | 'tmp'): Promise<string> {
  const file = path.join(dir, `eio-${writer}.mjs`);
  const eio = "Object.assign(new Error('EIO: i/o error, write'), {code: 'EIO', errno: -5, syscall: 'write'})";
  await writeFile(
    file,
    writer === 'stdout'
      ? `process.stdout._write = (chunk, encoding, callback) => callback(${eio});\n` +
          `process.stdout._writev = (chunks, callback) => callback(${eio});\n`
      : `import fs from 'node:fs';\n` +
          `const failing = new Set();\n` +
          `const open = fs.open;\n` +
          `fs.open = function (file, ...rest) {\n` +
          `  const callback = rest.pop();\n` +
          `  return open.call(this, file, ...rest, (error, fd) => { if (!error && String(file).endsWith('.tmp')) failing.add(fd); callback(error, fd); });\n` +
          `};\n` +
          `for (const name of ['write', 'writev']) {\n` +
          `  const original = fs[name];\n` +
          `  fs[name] = function (fd, ...rest) {\n` +
          `    if (!failing.has(fd)) return original.call(this, fd, ...rest);\n` +
          `    process.nextTick(rest.pop(), ${eio});\n` +
          `  };\n` +
          `}\n`,
  );
  return pathToFileURL(file).href;
}

test('EIO on stdout: one line, exit 2, and no temporary folder left', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-eio-'));
  const tmp = await mkdtemp(path.join(tmpdir(), 'indexer-eio-tmp-'));
  try {
    const run = start(['crawl', MINI], {TMPDIR: tmp, NODE_OPTIONS: `--import ${await eioPreload(dir, 'stdout')}`});
    const {code, stderr, stdout} = await run.result;
    assert.deepEqual([code, stderr, stdout], [2, 'docs-indexer: cannot write to stdout (EIO)\n', '']);
    assert.deepEqual(await readdir(tmp), [], 'no docs-indexer-* folder left');
  } finally {
    await rm(dir, {recursive: true, force: true});
    await rm(tmp, {recursive: true, force: true});
  }
});

test('EIO on the writes of --out FILE: one line, exit 2, FILE as it was and no FILE.PID.tmp', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-eio-'));
  const outDir = await mkdtemp(path.join(tmpdir(), 'indexer-eio-out-'));
  try {
    const out = path.join(outDir, 'records.json');
    await writeFile(out, '["the previous records"]\n');
    const run = start(['crawl', MINI, '--out', out], {NODE_OPTIONS: `--import ${await eioPreload(dir, 'tmp')}`});
    const {code, stderr} = await run.result;
    assert.deepEqual([code, stderr], [2, `docs-indexer: cannot write ${out} (EIO)\n`]);
    assert.deepEqual(await readdir(outDir), ['records.json'], 'no records.json.PID.tmp left');
    assert.equal(await readFile(out, 'utf8'), '["the previous records"]\n');
  } finally {
    await rm(dir, {recursive: true, force: true});
    await rm(outDir, {recursive: true, force: true});
  }
});

test('EIO on the private temporary file of a crawl to stdout: one line, exit 2, nothing on stdout, no temporary folder left', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-eio-'));
  const tmp = await mkdtemp(path.join(tmpdir(), 'indexer-eio-tmp-'));
  try {
    const run = start(['crawl', MINI], {TMPDIR: tmp, NODE_OPTIONS: `--import ${await eioPreload(dir, 'tmp')}`});
    const {code, stderr, stdout} = await run.result;
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^docs-indexer: cannot write \S+records\.json \(EIO\)\n$/);
    assert.equal(stdout, '');
    assert.deepEqual(await readdir(tmp), [], 'no docs-indexer-* folder left');
  } finally {
    await rm(dir, {recursive: true, force: true});
    await rm(tmp, {recursive: true, force: true});
  }
});

test('the live index deleted during a push is reported as such, not as another publish', async () => {
  const fake = await startFakeAlgolia();
  try {
    seedLive(fake);
    const held = fake.gate({step: 'batch'});
    const run = start(['push', MINI], envFor(fake));
    await held.reached;
    fake.indexes.delete('docs');
    held.release();
    const {code, stderr} = await run.result;
    assert.equal(code, 1, stderr);
    assert.match(stderr, /^docs-indexer: the live index "docs" was deleted during this run \(it existed when the run started\); this run's records were not published/);
    assert.doesNotMatch(stderr, /another publish/);
    assert.deepEqual(fake.names(), [], 'the temporary index was deleted, and no live index made');
  } finally {
    await fake.close();
  }
});
