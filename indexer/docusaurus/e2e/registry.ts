/**
 * A real npm registry on loopback for the theme's tests: Verdaccio (a devDependency of this
 * package, so `npm ci` installs it), with docs-search, docs-indexer and
 * docusaurus-theme-docs-search published to it from this repository and everything else
 * answered by its uplink, the public npm registry. Sites then install the theme as a user does:
 * `npm install docusaurus-theme-docs-search`.
 *
 * REGISTRY_PORT, else E2E_PORT + 88, else 4888 (4190, where E2E_PORT + 90 would land for a base of 4100, is on the list of ports that fetch and browsers refuse).
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {copyFile, mkdir, writeFile} from 'node:fs/promises';
import {createServer} from 'node:net';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const require = createRequire(import.meta.url);

export const OUR_PACKAGES = ['docs-search', 'docs-indexer', 'docusaurus-theme-docs-search'] as const;
type OurPackage = (typeof OUR_PACKAGES)[number];

/** Each package's folder in this repository, and a file its build writes. */
const SOURCES: Record<OurPackage, {folder: string; built: string}> = {
  'docs-search': {folder: 'indexer/search', built: 'dist/index.js'},
  'docs-indexer': {folder: 'indexer', built: 'dist/index.js'},
  'docusaurus-theme-docs-search': {folder: 'indexer/docusaurus', built: 'lib/index.js'},
};

export function registryPort(): number {
  return Number(process.env.REGISTRY_PORT ?? (process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 88 : 4888));
}

export interface Registry {
  url: string;
  /** npm's command-line flags that point a command at this registry (and authenticate a publish). */
  flags: string[];
  /** The contents of a project .npmrc that points installs in that project at this registry. */
  npmrc: string;
  stop(): Promise<void>;
}

/** The environment of a user's shell: none of the npm_* variables of the `npm test` running us. */
export function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) && key.toLowerCase() !== 'npm_config_cache') continue;
    if (key === 'INIT_CWD' || key.startsWith('ALGOLIA_') || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return env;
}

/** Throws unless nothing listens on 127.0.0.1:port (another registry there would answer our ping). */
async function mustBeFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new Error(`port ${port} on 127.0.0.1 is in use: stop what listens there or set REGISTRY_PORT`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

async function waitForRegistry(url: string, server: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (server.exitCode !== null) throw new Error(`the registry exited: ${output()}`);
    try {
      const response = await fetch(`${url}-/ping`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no registry at ${url}: ${output()}`);
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end in a user's environment (never throws): its exit code and its output. */
export function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {cwd, env: {...userEnv(), ...env}});
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (error) => resolve({code: -1, stdout, stderr: String(error)}));
    child.on('close', (code) => resolve({code, stdout, stderr}));
  });
}

/** packedFiles per package, asked once. */
const packed = new Map<OurPackage, Promise<string[]>>();

/**
 * The files `npm pack` puts in a package's tarball (its `files`, its README and package.json), as
 * npm lists them, without running its scripts.
 */
function packedFiles(name: OurPackage): Promise<string[]> {
  let files = packed.get(name);
  if (!files) packed.set(name, (files = listPacked(name)));
  return files;
}

async function listPacked(name: OurPackage): Promise<string[]> {
  const listed = await runCommand('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--workspace', name], repo);
  if (listed.code !== 0) throw new Error(`npm pack --dry-run --workspace ${name} failed:\n${listed.stdout}\n${listed.stderr}`);
  const [pack] = JSON.parse(listed.stdout) as {files: {path: string}[]}[];
  const files = (pack?.files ?? []).map((file) => file.path);
  // Each package declares its dependencies: a tarball that carries a node_modules folder bundles
  // a package, and a bundled package's own dependencies are not installed with it.
  const bundled = files.filter((file) => file.startsWith('node_modules/'));
  if (bundled.length) throw new Error(`${name} would bundle ${bundled.join(', ')}: declare it as a dependency instead`);
  if (!files.includes(SOURCES[name].built)) throw new Error(`${name} is not built (no ${SOURCES[name].built}): run npm run build:packages`);
  return files;
}

async function copyFiles(from: string, files: string[], to: string): Promise<void> {
  for (const file of files) {
    await mkdir(path.dirname(path.join(to, file)), {recursive: true});
    await copyFile(path.join(from, file), path.join(to, file));
  }
}

/**
 * A copy of what `npm pack` of `name` holds, in a folder of its own below `dir`: the tarball's
 * files. Published from the copy, with no script run, the packages are those of the last build
 * (npm run build:packages), and nothing in the repository is written while the other test suites
 * run beside this one (prepack would rebuild the theme's lib/, which the site's build loads).
 */
async function stage(name: OurPackage, dir: string): Promise<string> {
  const to = path.join(dir, name);
  await copyFiles(path.join(repo, SOURCES[name].folder), await packedFiles(name), to);
  return to;
}

/**
 * Starts Verdaccio with its storage in `dir` and publishes this repository's three packages to it,
 * each from a staged copy of its tarball's files (stage(): the last build, scripts not run).
 */
export async function startRegistry(dir: string): Promise<Registry> {
  const port = registryPort();
  const url = `http://127.0.0.1:${port}/`;
  await mkdir(path.join(dir, 'storage'), {recursive: true});
  await mustBeFree(port);
  const staged = await Promise.all(OUR_PACKAGES.map((name) => stage(name, path.join(dir, 'stage'))));
  const own = OUR_PACKAGES.map((name) => `  '${name}':\n    access: $all\n    publish: $anonymous\n`).join('');
  // Metadata from the uplink is kept for the whole run (maxage), tarballs are not stored twice:
  // npm's own cache holds them.
  const config = [
    `storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
    'uplinks:',
    '  npmjs:',
    '    url: https://registry.npmjs.org/',
    '    maxage: 60m',
    '    timeout: 60s',
    '    cache: false',
    '    agent_options: {keepAlive: true, maxSockets: 40}',
    'packages:',
    own.trimEnd(),
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    '    proxy: npmjs',
    'web:',
    '  enable: false',
    'max_body_size: 200mb',
    'log: {type: stdout, format: pretty, level: error}',
    '',
  ].join('\n');
  const configFile = path.join(dir, 'config.yaml');
  await writeFile(configFile, config);
  const bin = require.resolve('verdaccio/bin/verdaccio');
  const server = spawn(process.execPath, [bin, '--config', configFile, '--listen', `127.0.0.1:${port}`], {cwd: dir, env: userEnv()});
  let output = '';
  server.stdout?.on('data', (d) => (output += d));
  server.stderr?.on('data', (d) => (output += d));
  await waitForRegistry(url, server, () => output);
  const host = `//127.0.0.1:${port}/`;
  // Verdaccio takes anonymous publishes of our packages; npm still wants a token to send.
  const flags = [`--registry=${url}`, `--${host}:_authToken=local-test-registry`];
  const published = await Promise.all(staged.map((folder) => runCommand('npm', ['publish', '--ignore-scripts', '--tag', 'latest', ...flags], folder)));
  const failed = published.find((run) => run.code !== 0);
  if (failed) {
    server.kill();
    throw new Error(`npm publish to the local registry failed:\n${failed.stdout}\n${failed.stderr}\n${output}`);
  }
  return {
    url,
    flags,
    npmrc: `registry=${url}\n${host}:_authToken=local-test-registry\n`,
    stop: async () => {
      if (server.exitCode !== null) return;
      const exited = new Promise((r) => server.once('exit', r));
      server.kill();
      await exited;
    },
  };
}
