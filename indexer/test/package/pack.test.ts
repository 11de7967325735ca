/**
 * docs-indexer as a user installs it: `npm pack` of it and of docs-search (its dependency, a
 * package of its own), then `npm install` of both tarballs in a folder holding only the oldest
 * algoliasearch the indexer accepts, then the bin through npx, with no TypeScript tooling in that
 * folder. Slow (two builds and an install): it is one test, with every check of the installed tool
 * inside. Then the ends of zod's range: the two tarballs installed into `npm init -y && npm i
 * zod@X` trees, one per end. The registry-install tests of the theme (indexer/docusaurus/e2e)
 * install the same packages by name into the trees users have.
 *
 * It runs beside the other test files: `npm test`'s pretest has built dist/, so the prepack build
 * of `npm pack` finds it up to date and writes nothing the other files load.
 */
import {after, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, readdir, rm, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
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

interface Manifest {
  version: string;
  dependencies: Record<string, string>;
}

const readManifest = async (folder: string) => JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as Manifest;

/** The two tarballs, packed once for the tests below (in a folder removed after them). */
let packing: Promise<{tmp: string; search: Packed; info: Packed}> | undefined;
function packed(): Promise<{tmp: string; search: Packed; info: Packed}> {
  packing ??= (async () => {
    const tmp = await mkdtemp(path.join(tmpdir(), 'docs-indexer-pack-'));
    return {tmp, search: await pack(path.join(workspaceRoot, 'search'), tmp), info: await pack(workspaceRoot, tmp)};
  })();
  return packing;
}
after(async () => {
  if (packing) await rm((await packing).tmp, {recursive: true, force: true});
});

test('npm pack gives tarballs that install side by side into a project with the oldest algoliasearch accepted, and run: --help, --version, crawl, push, search', {timeout: 600_000}, async () => {
  const manifest = await readManifest(workspaceRoot);
  const {tmp, search, info} = await packed();
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
});

/**
 * The ends of zod's range (the same in docs-search and docs-indexer, `^3.x.y`): the lowest 3.x it
 * accepts and the newest 3. A tree made as a user's is: `npm init -y && npm i zod@X && npm i <the
 * two tarballs>`. Not zod 4: the schema code runs on it in plain Node, but Docusaurus loads the
 * theme (and so docs-indexer and docs-search) through jiti, whose default-export interop finds no
 * `z` in the sealed CommonJS exports of recent zod 4 (4.6.7; 4.0.0 loads): `Cannot read properties
 * of undefined (reading 'string')`: on zod 4 the theme would stop every build. npm nests zod 3 beside it.
 */
async function zodEnds(): Promise<{range: string; ends: string[]}> {
  const [search, indexer] = await Promise.all([readManifest(path.join(workspaceRoot, 'search')), readManifest(workspaceRoot)]);
  const range = search.dependencies.zod ?? '';
  assert.equal(indexer.dependencies.zod, range, 'docs-search and docs-indexer ask the same zod');
  const lowest = /^\^(3\.\d+\.\d+)$/.exec(range)?.[1];
  assert.ok(lowest, `zod's range is ^3.x.y: ${range}`);
  return {range, ends: [lowest, '3']};
}

/** A good record, and two bad ones: a field the schema refuses, and a rule across fields (content record without content). */
const GOOD_RECORD = {
  objectID: 'a-1',
  url: 'https://example.com/docs/a#setup',
  url_without_anchor: 'https://example.com/docs/a',
  anchor: 'setup',
  type: 'content',
  hierarchy: {lvl0: 'Docs', lvl1: 'A page', lvl2: 'Setup', lvl3: null, lvl4: null, lvl5: null, lvl6: null},
  content: 'Plug the meter in.',
  weight: {pageRank: 0, level: 0, position: 1},
  language: 'en',
  docusaurus_tag: 'docs-default-current',
};

/** What the installed packages do with the tree's zod, run by plain Node in the tree. */
const ZOD_CHECK = `
import {findInvalidRecord, recordListSchema, searchRecordSchema} from 'docs-search/record';
import {crawl, resolveCrawlOptions} from 'docs-indexer';
const good = ${JSON.stringify(GOOD_RECORD)};
const badField = {...good, url: 'not a url'};
const badRule = {...good, content: null};
let badOption;
try { resolveCrawlOptions({source: 'site', concurrency: '0'}); } catch (error) { badOption = error.constructor.name + ': ' + error.message; }
const {records} = await crawl(${JSON.stringify(fixture('mini-site'))});
console.log(JSON.stringify({
  parsed: recordListSchema.parse([good]).length,
  badField: searchRecordSchema.safeParse(badField).success,
  badRule: searchRecordSchema.safeParse(badRule).success,
  invalid: [findInvalidRecord([good])?.index ?? null, findInvalidRecord([good, badRule])?.index ?? null],
  defaults: resolveCrawlOptions({source: 'site'}).json,
  badOption,
  crawled: records.length,
}));
`;

/** Type errors unless SearchRecord and the options are typed (an unused @ts-expect-error is one). */
const TYPES_CHECK = `import {searchRecordSchema, type SearchRecord} from 'docs-search/record';
import {resolveCrawlOptions} from 'docs-indexer';
const record: SearchRecord = searchRecordSchema.parse({});
export const url: string = record.url;
// @ts-expect-error: a record's url is a string
export const wrong: number = record.url;
// @ts-expect-error: concurrency is a number
export const concurrency: string = resolveCrawlOptions({source: 's'}).concurrency;
`;

/** docs-indexer loaded as Docusaurus loads a plugin, with the jiti of this repository's Docusaurus. */
const jiti = createRequire(createRequire(import.meta.url).resolve('@docusaurus/utils/package.json')).resolve('jiti');
const JITI_CHECK = `const load = require(${JSON.stringify(jiti)})(require('node:path').join(process.cwd(), 'docusaurus.config.js'), {cache: false, requireCache: false, interopDefault: true});
console.log('parsed', load('docs-indexer').recordListSchema.parse([${JSON.stringify(GOOD_RECORD)}]).length);`;

/** This repository's TypeScript compiler. */
const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');

test("zod at both ends of the packages' range at a project's top: npm i of the tarballs reuses it (no second zod), npm ls --all clean; in plain Node the schema parses a record and rejects bad ones, options parse, a crawl validates; it loads through jiti as Docusaurus loads a plugin; a TypeScript caller gets the types", {timeout: 600_000}, async () => {
  const {tmp, search, info} = await packed();
  const {ends} = await zodEnds();
  for (const zod of ends) {
    const app = path.join(tmp, `app-zod-${zod}`);
    await mkdir(app);
    const init = await run('npm', ['init', '-y'], app);
    assert.equal(init.code, 0, init.stderr);
    const withZod = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `zod@${zod}`], app);
    assert.equal(withZod.code, 0, withZod.stderr);
    const zodVersion = async () => (JSON.parse(await readFile(path.join(app, 'node_modules', 'zod', 'package.json'), 'utf8')) as {version: string}).version;
    const before = await zodVersion();
    const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join('..', search.filename), path.join('..', info.filename)], app);
    assert.equal(installed.code, 0, installed.stderr);
    assert.equal(await zodVersion(), before, `zod@${zod}: the project's zod moved`);
    for (const name of ['docs-search', 'docs-indexer']) {
      assert.ok(!existsSync(path.join(app, 'node_modules', name, 'node_modules', 'zod')), `zod@${zod}: a second zod was installed for ${name}`);
    }
    const listed = await run('npm', ['ls', '--all'], app);
    assert.equal(listed.code, 0, `zod@${zod}: ${listed.stdout}${listed.stderr}`);
    const checked = await run(process.execPath, ['--input-type=module', '-e', ZOD_CHECK], app);
    assert.equal(checked.code, 0, `zod@${zod}: ${checked.stderr}`);
    const outcome = JSON.parse(checked.stdout) as {badOption: string};
    assert.match(outcome.badOption, /^UsageError: --concurrency must be a whole number from 1 to \d+ \(got "0"\)$/, `zod@${before}`);
    assert.deepEqual(outcome, {parsed: 1, badField: false, badRule: false, invalid: [null, 1], defaults: false, badOption: outcome.badOption, crawled: 11}, `zod@${before}`);
    // As Docusaurus loads a plugin (@docusaurus/utils' loadFreshModule: jiti, interopDefault).
    const jitied = await run(process.execPath, ['-e', JITI_CHECK], app);
    assert.deepEqual([jitied.code, jitied.stdout.trim()], [0, 'parsed 1'], `zod@${before}, through jiti: ${jitied.stderr}`);
    // A TypeScript caller's types: the record and the options typed, not any (this repository's
    // tsc, the tree's packages; below 3.14 they were any).
    await writeFile(path.join(app, 'types.ts'), TYPES_CHECK);
    await writeFile(path.join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: []},
      files: ['types.ts'],
    }));
    const typed = await run(process.execPath, [tsc, '-p', '.'], app);
    assert.equal(typed.code, 0, `zod@${before}: ${typed.stdout}${typed.stderr}`);
  }
});
