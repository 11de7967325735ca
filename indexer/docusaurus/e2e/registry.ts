/**
 * A real npm registry on loopback for the theme's tests: Verdaccio (a devDependency of this
 * package, so `npm ci` installs it), with docs-search, docs-indexer and
 * docusaurus-theme-docs-search published to it from this repository and everything else
 * answered by its uplink, the public npm registry. Sites then install the theme as a user does:
 * `npm install docusaurus-theme-docs-search`.
 *
 * REGISTRY_PORT, else E2E_PORT + 88, else 4888 (4190, where E2E_PORT + 90 would land for a base of 4100, is on the list of ports that fetch and browsers refuse).
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {mkdir, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const require = createRequire(import.meta.url);

export const OUR_PACKAGES = ['docs-search', 'docs-indexer', 'docusaurus-theme-docs-search'] as const;

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

/**
 * Starts Verdaccio with its storage in `dir` and publishes this repository's three packages to it
 * (`npm publish`: prepack builds each, as on a real release).
 */
export async function startRegistry(dir: string): Promise<Registry> {
  const port = registryPort();
  const url = `http://127.0.0.1:${port}/`;
  await mkdir(path.join(dir, 'storage'), {recursive: true});
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
  const published = spawnSync(
    'npm',
    ['publish', ...OUR_PACKAGES.flatMap((name) => ['--workspace', name]), '--tag', 'latest', '--no-git-checks', ...flags],
    {cwd: repo, env: userEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024},
  );
  if (published.status !== 0) {
    server.kill();
    throw new Error(`npm publish to the local registry failed:\n${published.stdout}\n${published.stderr}\n${output}`);
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
