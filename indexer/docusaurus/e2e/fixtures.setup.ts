/**
 * Packs the theme (`npm pack`: built JavaScript, with docs-indexer and docs-search bundled),
 * installs the tarball with Docusaurus and React into a temporary folder that has no TypeScript
 * tooling, copies the fixture sites into it with the theme's one line added to their config,
 * builds each once and serves each with `docusaurus serve`. Returns the teardown.
 *
 * THEME_E2E_DIR=<folder> keeps that folder (made on the first run, reused while it has builds)
 * for quick reruns while working on the tests.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {existsSync} from 'node:fs';
import {cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {ALGOLIA_SITE_OPTIONS, FIXTURE_SITES, algoliaSiteOrigin, devServerOrigin, originOf, type FixtureSite} from './sites.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const theme = path.resolve(here, '..');
const indexerSites = path.resolve(theme, '..', 'test', 'sites');
const require = createRequire(import.meta.url);

/** The environment of a user's shell: none of the npm_* variables of the `npm test` running us. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) && key.toLowerCase() !== 'npm_config_cache') continue;
    if (key === 'INIT_CWD' || key.startsWith('ALGOLIA_') || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return env;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(command, args, {cwd, env: {...userEnv(), ...env}, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const versionOf = (name: string) => (require(`${name}/package.json`) as {version: string}).version;

/** A fixture's sources (not its committed html/) with `themes: ['docusaurus-theme-docs-search']` added. */
async function copyFixture(name: FixtureSite, to: string): Promise<void> {
  const from = name === 'classic-ts' ? path.join(here, 'classic-ts') : path.join(indexerSites, name);
  await cp(from, to, {recursive: true, filter: (file) => !/[\\/](html|\.docusaurus|build|node_modules)$/.test(file)});
  if (name === 'classic-ts') return; // its config has the line already
  const configFile = path.join(to, 'docusaurus.config.js');
  const config = await readFile(configFile, 'utf8');
  if (/\bthemes:/.test(config)) throw new Error(`${name}: the fixture has its own themes list; add the theme there`);
  await writeFile(configFile, config.replace(/^export default \{$/m, "export default {\n  themes: ['docusaurus-theme-docs-search'],"));
}

async function prepare(dir: string): Promise<void> {
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], theme)) as {filename: string}[];
  const tarball = packed[0]?.filename;
  if (!tarball) throw new Error('npm pack gave no tarball');
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify({private: true}, null, 2)}\n`);
  // The same Docusaurus and React as the repository, from npm's cache when it holds them.
  const core = versionOf('@docusaurus/core');
  run(
    'npm',
    [
      'install', '--prefer-offline', '--no-audit', '--no-fund',
      `./${tarball}`,
      `@docusaurus/core@${core}`, `@docusaurus/preset-classic@${core}`, `@docusaurus/faster@${core}`,
      `react@${versionOf('react')}`, `react-dom@${versionOf('react-dom')}`,
    ],
    dir,
  );
  const modules = await readdir(path.join(dir, 'node_modules'));
  for (const tool of ['typescript', 'tsx', 'ts-node']) {
    if (modules.includes(tool)) throw new Error(`${tool} was installed: the site must work without TypeScript tooling`);
  }
  const docusaurus = path.join(dir, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs');
  for (const name of FIXTURE_SITES) {
    const site = path.join(dir, 'sites', name);
    await copyFixture(name, site);
    // One build at a time: the machine is shared. Each site is built once, so Rspack's persistent
    // cache (node_modules/.cache, shared by the sites here) would only cost time; with it, the
    // second locale's pages of two-locales pointed at scripts written into the first locale's
    // folder.
    run(process.execPath, [docusaurus, 'build', site], dir, {DOCUSAURUS_NO_PERSISTENT_CACHE: 'true'});
  }
  // versioned-blog in Algolia mode: the classic preset adds @docusaurus/theme-search-algolia, and
  // this theme's components must still be the ones used. With options: the index it still
  // writes leaves out the pages plugin's pages and the blog's tag pages.
  const algoliaSite = path.join(dir, 'sites', 'versioned-blog-algolia');
  await copyFixture('versioned-blog', algoliaSite);
  const configFile = path.join(algoliaSite, 'docusaurus.config.js');
  await writeFile(
    configFile,
    (await readFile(configFile, 'utf8'))
      .replace(
        /^ {2}themeConfig: \{$/m,
        "  themeConfig: {\n    algolia: {appId: 'FIXTUREAPP', apiKey: 'fixture-search-key', indexName: 'fixture'},",
      )
      .replace("themes: ['docusaurus-theme-docs-search'],", `themes: [['docusaurus-theme-docs-search', ${JSON.stringify(ALGOLIA_SITE_OPTIONS)}]],`),
  );
  run(process.execPath, [docusaurus, 'build', algoliaSite], dir, {DOCUSAURUS_NO_PERSISTENT_CACHE: 'true'});
  await writeFile(path.join(dir, 'built'), new Date().toISOString());
}

async function waitFor(url: string, server: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 1200; i += 1) {
    if (server.exitCode !== null) throw new Error(`server for ${url} exited: ${output()}`);
    try {
      const response = await fetch(url, {redirect: 'manual'});
      if (response.status < 400) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no server at ${url}: ${output()}`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const kept = process.env.THEME_E2E_DIR;
  const dir = kept ? path.resolve(kept) : await mkdtemp(path.join(tmpdir(), 'docs-search-theme-'));
  if (!kept || !existsSync(path.join(dir, 'built'))) {
    await mkdir(dir, {recursive: true});
    await prepare(dir);
  }
  const docusaurus = path.join(dir, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs');
  const servers: ChildProcess[] = [];
  const start = async (args: string[], origin: string) => {
    const server = spawn(process.execPath, [docusaurus, ...args, '--port', new URL(origin).port, '--host', 'localhost', '--no-open'], {cwd: dir, env: userEnv()});
    let output = '';
    server.stdout?.on('data', (d) => (output += d));
    server.stderr?.on('data', (d) => (output += d));
    servers.push(server);
    await waitFor(origin, server, () => output);
  };
  for (const name of FIXTURE_SITES) await start(['serve', path.join(dir, 'sites', name)], originOf(name));
  await start(['serve', path.join(dir, 'sites', 'versioned-blog-algolia')], algoliaSiteOrigin());
  // The development server answers once its first compilation is done.
  await start(['start', path.join(dir, 'sites', 'classic-ts')], devServerOrigin());
  return async () => {
    for (const server of servers) server.kill();
    if (!kept) await rm(dir, {recursive: true, force: true});
  };
}
