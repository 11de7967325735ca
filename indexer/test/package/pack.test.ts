/**
 * docs-indexer as a user installs it: `npm pack` of it and of docs-search (its dependency, a
 * package of its own), then `npm install` of both tarballs in a folder holding only the oldest
 * algoliasearch the indexer accepts, then the bin through npx, with no TypeScript tooling in that
 * folder. Slow (two builds and an install): it is one test, with every check of the installed tool
 * inside. The registry-install tests of the theme (indexer/docusaurus/e2e) install the same
 * packages by name into the trees users have.
 *
 * It runs on its own, after the other test files (`npm test` runs `test/package/` second): `npm
 * pack` runs prepack, which rebuilds dist/ while other test files load it.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, readdir, rm, writeFile} from 'node:fs/promises';
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

interface Packed {
  filename: string;
  files: {path: string}[];
  bundled: string[];
}

/** `npm pack` of the package in `folder` (its prepack builds it) into `destination`. */
async function pack(folder: string, destination: string): Promise<Packed> {
  const packed = await run('npm', ['pack', '--json', '--pack-destination', destination], folder);
  assert.equal(packed.code, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Packed[];
  assert.ok(info);
  return info;
}

test('npm pack gives tarballs that install side by side into a project with the oldest algoliasearch accepted, and run: --help, --version, crawl, push, search', {timeout: 600_000}, async () => {
  const tmp = await mkdtemp(path.join(tmpdir(), 'docs-indexer-pack-'));
  try {
    const manifest = JSON.parse(await readFile(path.join(workspaceRoot, 'package.json'), 'utf8')) as {version: string; dependencies: Record<string, string>};
    const search = await pack(path.join(workspaceRoot, 'search'), tmp);
    const info = await pack(workspaceRoot, tmp);
    // Each declares its dependencies and bundles none: docs-search is a dependency of docs-indexer.
    assert.deepEqual([info.bundled, search.bundled], [[], []]);
    assert.equal(manifest.dependencies['docs-search'], `^${manifest.version}`);
    const files = info.files.map((f) => f.path);
    assert.ok(files.includes('dist/cli/main.js') && files.includes('dist/index.d.ts'), files.join(' '));
    assert.deepEqual(files.filter((f) => f.startsWith('node_modules/')), [], 'nothing bundled');
    assert.deepEqual(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), [], 'no TypeScript source in the tarball');
    assert.ok(search.files.some((f) => f.path === 'dist/index.js'));

    const app = path.join(tmp, 'app');
    await mkdir(app);
    // A user's project holding the oldest algoliasearch that docs-indexer's range accepts: the
    // indexer must use that copy (no second one, no upgrade) and publish with it. The packages
    // come from npm's cache when it holds them.
    const oldest = /^\^(\d+\.\d+\.\d+)$/.exec(manifest.dependencies.algoliasearch ?? '')?.[1];
    assert.ok(oldest, `algoliasearch's range is ^x.y.z: ${manifest.dependencies.algoliasearch}`);
    await writeFile(path.join(app, 'package.json'), `${JSON.stringify({name: 'app', version: '1.0.0', private: true, dependencies: {algoliasearch: oldest}}, null, 2)}\n`);
    const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join('..', search.filename), path.join('..', info.filename)], app);
    assert.equal(installed.code, 0, installed.stderr);
    const modules = await readdir(path.join(app, 'node_modules'));
    for (const tool of ['typescript', 'tsx', 'esbuild']) assert.ok(!modules.includes(tool), `${tool} was installed`);
    const listed = await run('npm', ['ls', '--all'], app);
    assert.equal(listed.code, 0, listed.stdout + listed.stderr);
    const algolia = JSON.parse(await readFile(path.join(app, 'node_modules', 'algoliasearch', 'package.json'), 'utf8')) as {version: string};
    assert.equal(algolia.version, oldest);
    assert.ok(!existsSync(path.join(app, 'node_modules', 'docs-indexer', 'node_modules', 'algoliasearch')), 'a second algoliasearch was installed for docs-indexer');

    const npx = (args: string[], env?: NodeJS.ProcessEnv) => run('npx', ['--no-install', 'docs-indexer', ...args], app, env);
    const help = await npx(['--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: docs-indexer \[options\] \[command\]/);
    for (const command of ['crawl', 'push', 'search']) assert.match(help.stdout, new RegExp(`^  ${command} `, 'm'));

    const version = await npx(['--version']);
    assert.deepEqual([version.code, version.stdout], [0, `${manifest.version}\n`]);

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
      // Every call of a publish (settings, synonyms, batches, the move, task waits) with that client.
      const synonyms = path.join(app, 'synonyms.json');
      await writeFile(synonyms, JSON.stringify({synonyms: [{objectID: 'plug', type: 'synonym', synonyms: ['socket', 'plug']}]}));
      const pushed = await npx(['push', fixture('mini-site'), '--synonyms', synonyms, '--json'], env);
      assert.equal(pushed.code, 0, pushed.stderr);
      const summary = JSON.parse(pushed.stdout) as {records: number; added: number; synonyms: unknown};
      assert.deepEqual([summary.records, summary.added, summary.synonyms], [11, 11, {saved: 1, removed: 0, unchanged: 0}]);
      assert.equal(fake.records('docs').length, 11);
      assert.deepEqual(fake.names(), ['docs']);
    } finally {
      await fake.close();
    }

    // The library API from the installed package crawls and writes a local index; the search
    // command reads it with docs-search's engine (installed as docs-indexer's dependency).
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
