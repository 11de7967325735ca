#!/usr/bin/env node
/**
 * Builds lib/: the build side (src/index.ts and what it imports, Node ESM) and the browser side
 * (src/theme, src/client: plain JavaScript with React's JSX runtime, so a site needs no
 * TypeScript tooling), then copies the stylesheets beside the compiled components.
 *
 * npm ci's prepare, npm test and npm pack each run it: the two TypeScript compiles are skipped
 * when lib/.build-inputs holds the hash of everything they read (below) as it is now.
 */
import {spawnSync} from 'node:child_process';
import process from 'node:process';
import {createHash} from 'node:crypto';
import {cp, readFile, readdir, rm, stat, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const stamp = path.join(root, 'lib', '.build-inputs');

/**
 * What the compiled files depend on: the theme's sources and configurations (the server's extends
 * the repository's), this script, the types they compile against (docs-search's sources, every
 * locked version) and TypeScript's version.
 */
async function inputsHash() {
  const hash = createHash('sha256').update(createRequire(import.meta.url)('typescript/package.json').version);
  const add = async (file) => hash.update(`\0${path.relative(root, file)}\0`).update(await readFile(file));
  for (const folder of ['src', '../search/src']) {
    for (const entry of (await readdir(path.join(root, folder), {recursive: true})).sort()) {
      const file = path.join(root, folder, entry);
      if ((await stat(file)).isFile()) await add(file);
    }
  }
  for (const file of ['scripts/build.js', 'package.json', 'tsconfig.json', 'tsconfig.server.json', 'tsconfig.browser.json', '../search/package.json', '../../tsconfig.json', '../../package-lock.json']) {
    await add(path.join(root, file));
  }
  return hash.digest('hex');
}

const inputs = await inputsHash();
if ((await readFile(stamp, 'utf8').catch(() => '')) !== inputs) {
  await rm(path.join(root, 'lib'), {recursive: true, force: true});
  for (const project of ['tsconfig.server.json', 'tsconfig.browser.json']) {
    const run = spawnSync(process.execPath, [tsc, '-p', project], {cwd: root, stdio: 'inherit'});
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
}
for (const entry of await readdir(path.join(root, 'src'), {recursive: true})) {
  if (entry.endsWith('.css')) await cp(path.join(root, 'src', entry), path.join(root, 'lib', entry));
}

// The early search box's answers (src/client/early-search.ts): one self-contained ES module with
// the modal's request and order and DocSearch's modal stylesheet, which the box imports by URL
// from the first paint, before the app (the theme's postBuild copies it into the site's build).
// Its engine runs in a worker of its own (src/client/early-worker.ts): a classic script.
const esbuild = await import('esbuild');
for (const [name, format] of [['early-search', 'esm'], ['early-worker', 'iife']]) {
  await esbuild.build({
    entryPoints: [path.join(root, 'src', 'client', `${name}.ts`)],
    outfile: path.join(root, 'lib', 'early', `${name}.js`),
    bundle: true,
    format,
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    loader: {'.css': 'text'},
    logLevel: 'warning',
  });
}
await writeFile(stamp, inputs);
