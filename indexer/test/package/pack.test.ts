/**
 * docs-indexer as a user installs it: `npm pack`, then `npm install ./docs-indexer-*.tgz` in an
 * empty folder, then the bin through npx, with no TypeScript tooling in that folder. Slow (a
 * build and an install): it is one test, with every check of the installed tool inside.
 *
 * It runs on its own, after the other test files (`npm test` runs `test/package/` second): `npm pack`
 * copies docs-search into indexer/node_modules to bundle it, and a test file importing docs-search
 * while that copy is half written fails with ERR_MODULE_NOT_FOUND.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, readdir, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {recordListSchema} from 'docs-search/record';
import {startFakeAlgolia} from '../fake-algolia.ts';
import {fixture, workspaceRoot} from '../helpers.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a user's shell: none of the npm_* variables of the `npm test` running us. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) && key.toLowerCase() !== 'npm_config_cache') continue;
    if (key === 'INIT_CWD' || key.startsWith('ALGOLIA_') || key.startsWith('DOCS_INDEXER_') || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return {...env, CI: 'true', ...extra};
}

function run(command: string, args: string[], cwd: string, env = userEnv()): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {cwd, env});
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({code, stdout, stderr}));
  });
}

test('npm pack gives a tarball that installs alone into an empty folder and runs: --help, --version, crawl, push --dry-run, search', {timeout: 600_000}, async () => {
  const tmp = await mkdtemp(path.join(tmpdir(), 'docs-indexer-pack-'));
  try {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', tmp], workspaceRoot);
    assert.equal(packed.code, 0, packed.stderr);
    const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as {filename: string; files: {path: string}[]; bundled: string[]}[];
    assert.ok(info);
    assert.deepEqual(info.bundled, ['docs-search']);
    const files = info.files.map((f) => f.path);
    assert.ok(files.includes('dist/cli/main.js') && files.includes('dist/index.d.ts') && files.includes('node_modules/docs-search/dist/index.js'), files.join(' '));
    assert.deepEqual(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), [], 'no TypeScript source in the tarball');
    assert.ok(!existsSync(path.join(workspaceRoot, 'node_modules', 'docs-search')), 'postpack removed the bundled copy');

    const app = path.join(tmp, 'app');
    await mkdir(app);
    // An empty project of a user; the packages come from npm's cache when it holds them.
    const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join('..', info.filename)], app);
    assert.equal(installed.code, 0, installed.stderr);
    const modules = await readdir(path.join(app, 'node_modules'));
    for (const tool of ['typescript', 'tsx', 'esbuild']) assert.ok(!modules.includes(tool), `${tool} was installed`);

    const npx = (args: string[], env?: NodeJS.ProcessEnv) => run('npx', ['--no-install', 'docs-indexer', ...args], app, env);
    const help = await npx(['--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: docs-indexer \[options\] \[command\]/);
    for (const command of ['crawl', 'push', 'search']) assert.match(help.stdout, new RegExp(`^  ${command} `, 'm'));

    const version = await npx(['--version']);
    const {version: expected} = JSON.parse(await readFile(path.join(workspaceRoot, 'package.json'), 'utf8')) as {version: string};
    assert.deepEqual([version.code, version.stdout], [0, `${expected}\n`]);

    const crawled = await npx(['crawl', fixture('mini-site'), '--out', 'records.json', '--json']);
    assert.equal(crawled.code, 0, crawled.stderr);
    assert.deepEqual(JSON.parse(crawled.stdout).records, 11);
    const records = recordListSchema.parse(JSON.parse(await readFile(path.join(app, 'records.json'), 'utf8')));
    assert.equal(records.length, 11);

    const fake = await startFakeAlgolia();
    try {
      const env = userEnv({ALGOLIA_APP_ID: fake.appId, ALGOLIA_ADMIN_API_KEY: fake.apiKey, ALGOLIA_INDEX_NAME: 'docs', ALGOLIA_HOSTS: fake.url});
      const dry = await npx(['push', fixture('mini-site'), '--dry-run'], env);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /^dry run: index "docs" would get 11 added, 0 updated, 0 deleted, 0 unchanged/);
      assert.ok(!dry.stdout.includes(fake.apiKey) && !dry.stderr.includes(fake.apiKey));
      assert.deepEqual(fake.records('docs'), []);
    } finally {
      await fake.close();
    }

    // The library API from the installed package crawls and writes a local index; the search
    // command reads it with the bundled docs-search engine (and so needs its dependencies).
    // crawl() on two worker threads: the built worker file runs from the installed package.
    const script = "import {crawl, writeLocalIndex} from 'docs-indexer';" +
      `const {records} = await crawl(${JSON.stringify(fixture('mini-site'))}, {workers: 2});` +
      "const stats = await writeLocalIndex(records, 'index/local-index.json'); console.log(stats.records);";
    const written = await run(process.execPath, ['--input-type=module', '-e', script], app);
    assert.deepEqual([written.code, written.stdout], [0, '11\n'], written.stderr);
    const found = await npx(['search', 'setup', '--index-file', 'index/local-index.json']);
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /^\d+ hits for "setup"/);
  } finally {
    await rm(tmp, {recursive: true, force: true});
  }
});
