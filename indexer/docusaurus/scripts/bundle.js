#!/usr/bin/env node
/**
 * `npm pack` of docusaurus-theme-docs-search bundles docs-indexer and docs-search
 * (bundleDependencies), so that the tarball installs alone into a site: both are workspaces of
 * this repository, not registry packages. npm bundles only what it finds in the package's own
 * node_modules, and a workspace lives in the root's node_modules as a symbolic link: `prepack`
 * copies the built packages (package.json, bin/, dist/) into indexer/docusaurus/node_modules/,
 * `postpack` removes the copies. npm installs the dependencies of a bundled package only when
 * the bundling one lists them: `add` checks that this package lists them all.
 *
 *   node scripts/bundle.js add|remove
 */
import {cp, readFile, rm, stat, writeFile} from 'node:fs/promises';
import process from 'node:process';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const theme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MARK = '.bundled-by-docusaurus-theme-docs-search';
const BUNDLED = [
  {name: 'docs-search', source: path.join(theme, '..', 'search'), parts: ['dist']},
  {name: 'docs-indexer', source: path.join(theme, '..'), parts: ['bin', 'dist', 'README.md']},
];

async function exists(file) {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

const targetOf = (name) => path.join(theme, 'node_modules', name);

async function remove() {
  // Only a copy made by `add`: never a checkout or a link someone put there.
  for (const {name} of BUNDLED) {
    if (await exists(path.join(targetOf(name), MARK))) await rm(targetOf(name), {recursive: true, force: true});
  }
}

async function add() {
  await remove();
  const own = JSON.parse(await readFile(path.join(theme, 'package.json'), 'utf8')).dependencies ?? {};
  for (const {name, source, parts} of BUNDLED) {
    const target = targetOf(name);
    if (await exists(target)) throw new Error(`${target} exists and is not a copy made by this script`);
    const pkg = JSON.parse(await readFile(path.join(source, 'package.json'), 'utf8'));
    const missing = Object.keys(pkg.dependencies ?? {}).filter((dep) => !(dep in own));
    if (missing.length) throw new Error(`docusaurus-theme-docs-search must list ${name}'s dependencies: add ${missing.join(', ')}`);
    if (!(await exists(path.join(source, 'dist', 'index.js')))) throw new Error(`${name} is not built (npm run build:packages)`);
    // No bundleDependencies of its own: the copies sit side by side here.
    const {bundleDependencies: _bundled, scripts: _scripts, devDependencies: _dev, ...manifest} = pkg;
    await cp(path.join(source, 'package.json'), path.join(target, MARK));
    await writeFile(path.join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const part of parts) {
      if (await exists(path.join(source, part))) {
        await cp(path.join(source, part), path.join(target, part), {recursive: true, filter: (file) => !file.endsWith('.tsbuildinfo')});
      }
    }
  }
}

const command = process.argv[2];
try {
  if (command === 'add') await add();
  else if (command === 'remove') await remove();
  else throw new Error('usage: bundle.js add|remove');
} catch (error) {
  process.stderr.write(`bundle: ${error.message}\n`);
  process.exit(1);
}
