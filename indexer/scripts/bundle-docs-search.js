#!/usr/bin/env node
/**
 * `npm pack` of docs-indexer bundles docs-search (bundleDependencies), so that the tarball
 * installs alone: docs-search is a workspace of this repository, not a registry package. npm
 * bundles only what it finds in the package's own node_modules, and a workspace lives in the
 * root's node_modules as a symbolic link: `prepack` copies the built package (package.json and
 * dist/) into indexer/node_modules/docs-search, `postpack` removes the copy.
 * docs-search's own dependencies are also docs-indexer's dependencies (npm installs those of a
 * bundled package only when they are listed by the bundling one); `add` checks that they are.
 *
 *   node scripts/bundle-docs-search.js add|remove
 */
import {cp, readFile, rm, stat} from 'node:fs/promises';
import process from 'node:process';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const indexer = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(indexer, 'search');
const target = path.join(indexer, 'node_modules', 'docs-search');
const MARK = '.bundled-by-docs-indexer';

async function exists(file) {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

async function remove() {
  // Only a copy made by `add`: never a checkout or a link someone put there.
  if (await exists(path.join(target, MARK))) await rm(target, {recursive: true, force: true});
}

async function add() {
  await remove();
  if (await exists(target)) throw new Error(`${target} exists and is not a copy made by this script`);
  const pkg = JSON.parse(await readFile(path.join(source, 'package.json'), 'utf8'));
  const own = JSON.parse(await readFile(path.join(indexer, 'package.json'), 'utf8')).dependencies ?? {};
  const missing = Object.keys(pkg.dependencies ?? {}).filter((name) => !(name in own));
  if (missing.length) throw new Error(`docs-indexer must list docs-search's dependencies: add ${missing.join(', ')}`);
  if (!(await exists(path.join(source, 'dist', 'index.js')))) throw new Error('docs-search is not built (npm run build)');
  await cp(path.join(source, 'package.json'), path.join(target, 'package.json'));
  await cp(path.join(source, 'dist'), path.join(target, 'dist'), {recursive: true, filter: (file) => !file.endsWith('.tsbuildinfo')});
  await cp(path.join(source, 'package.json'), path.join(target, MARK));
}

const command = process.argv[2];
try {
  if (command === 'add') await add();
  else if (command === 'remove') await remove();
  else throw new Error('usage: bundle-docs-search.js add|remove');
} catch (error) {
  process.stderr.write(`bundle-docs-search: ${error.message}\n`);
  process.exit(1);
}
