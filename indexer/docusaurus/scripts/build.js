#!/usr/bin/env node
/**
 * Builds lib/: the build side (src/index.ts and what it imports, Node ESM) and the browser side
 * (src/theme, src/client: plain JavaScript with React's JSX runtime, so a site needs no
 * TypeScript tooling), then copies the stylesheets beside the compiled components.
 */
import {spawnSync} from 'node:child_process';
import process from 'node:process';
import {cp, readdir, rm} from 'node:fs/promises';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

await rm(path.join(root, 'lib'), {recursive: true, force: true});
for (const project of ['tsconfig.server.json', 'tsconfig.browser.json']) {
  const run = spawnSync(process.execPath, [tsc, '-p', project], {cwd: root, stdio: 'inherit'});
  if (run.status !== 0) process.exit(run.status ?? 1);
}
for (const entry of await readdir(path.join(root, 'src'), {recursive: true})) {
  if (entry.endsWith('.css')) await cp(path.join(root, 'src', entry), path.join(root, 'lib', entry));
}
