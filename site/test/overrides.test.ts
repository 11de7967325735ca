/**
 * The inventory of framework overrides (site/overrides.json, site/OVERRIDES.md) holds:
 * - every dependency file an override copies, parses or replaces is the one it was written
 *   against: an upgrade that changes one fails here, so that whoever upgrades re-reads ours against
 *   the new file (and checks it is still needed), then records the new hash (and version);
 * - SITE_WITHOUT names only overrides of the inventory that can be switched off, in one line;
 * - every swizzled component under src/theme and every file the inventory names belong to an entry;
 * - every file of ours that imports a dependency's internals (`@docusaurus/theme-common/internal`,
 *   a deep `lib/` path, a wrapped `@theme-original/` component) belongs to an override that pins
 *   the internal file it reaches.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {existsSync, readFileSync, readdirSync, statSync} from 'node:fs';
import path from 'node:path';
import {OVERRIDES, packageDir, parseWithout} from '../plugins/overrides';

const SITE = path.resolve(__dirname, '..');

for (const override of OVERRIDES) {
  for (const pin of override.pinned) {
    test(`${override.name}: ${pin.package}/${pin.file} is the one it was written against (${pin.version})`, () => {
      const file = path.join(packageDir(pin.package), pin.file);
      const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
      assert.equal(
        sha256,
        pin.sha256,
        `${pin.package}/${pin.file} changed since ${pin.version}: compare ${override.files.join(', ')} with it, then update its sha256 and version in site/overrides.json`,
      );
    });
  }
}

test('every override has a unique kebab-case name, says what it replaces and through what, and names files that exist', () => {
  const names = OVERRIDES.map((o) => o.name);
  assert.deepEqual(names, [...new Set(names)]);
  for (const o of OVERRIDES) {
    assert.match(o.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.ok(o.replaces.length > 20 && o.extensionPoint.length > 10, o.name);
    for (const file of o.files) assert.ok(existsSync(path.join(SITE, file)), `${o.name}: ${file} does not exist`);
  }
});

test('site/OVERRIDES.md has a row for every override', () => {
  const page = readFileSync(path.join(SITE, 'OVERRIDES.md'), 'utf8');
  for (const o of OVERRIDES) assert.match(page, new RegExp(`^\\| \`${o.name}\` \\|`, 'm'), o.name);
});

test('an override that copies a dependency file (an ejected swizzle) is pinned', () => {
  for (const o of OVERRIDES) {
    if (/\(ejected\)|copied/.test(o.replaces)) assert.ok(o.pinned.length > 0, `${o.name} copies a file but pins none`);
  }
});

test('every swizzled component under src/theme belongs to an override', () => {
  const listed = new Set(OVERRIDES.flatMap((o) => o.themeComponents ?? []));
  const theme = path.join(SITE, 'src/theme');
  const components = readdirSync(theme, {recursive: true, encoding: 'utf8'})
    .filter((file) => /\.(tsx?|jsx?)$/.test(file))
    .map((file) => file.replace(/\\/g, '/').replace(/(\/index)?\.(tsx?|jsx?)$/, ''));
  assert.ok(components.length > 5);
  for (const component of components) assert.ok(listed.has(component), `src/theme/${component} is in no override's themeComponents`);
});

test('SITE_WITHOUT: names separated by commas; an unknown or fixed one is a one-line error', () => {
  assert.deepEqual([...parseWithout(undefined)], []);
  assert.deepEqual([...parseWithout('')], []);
  assert.deepEqual([...parseWithout('ssr-template, link-on-intent')], ['ssr-template', 'link-on-intent']);
  assert.throws(() => parseWithout('ssr-template,preact'), /^Error: SITE_WITHOUT: no override named "preact" \(site\/overrides\.json has: link-on-intent, /);
  assert.throws(() => parseWithout('docs-root'), /SITE_WITHOUT: "docs-root" cannot be switched off/);
});

/** The dependency file an import of ours reaches into, for the imports that reach past a package's public API. */
function internalFileOf(specifier: string): {package: string; file: string} | undefined {
  if (specifier === '@docusaurus/theme-common/internal') return {package: '@docusaurus/theme-common', file: 'lib/internal.js'};
  const deep = /^(@docusaurus\/[a-z-]+)\/(lib\/.+?)(\.js)?$/.exec(specifier);
  if (deep && !deep[2]!.endsWith('.css')) return {package: deep[1]!, file: `${deep[2]}.js`};
  const original = /^@theme-original\/(.+)$/.exec(specifier);
  if (original) {
    for (const theme of ['@docusaurus/theme-classic', '@docusaurus/theme-mermaid']) {
      const file = `lib/theme/${original[1]}/index.js`;
      if (existsSync(path.join(packageDir(theme), file))) return {package: theme, file};
    }
    throw new Error(`no theme has ${specifier}`);
  }
  return undefined;
}

/** Our source files (relative to site/) under src/ and plugins/. */
function ourSources(): string[] {
  return ['src', 'plugins'].flatMap((dir) =>
    readdirSync(path.join(SITE, dir), {recursive: true, encoding: 'utf8'})
      .filter((file) => /\.(tsx?|jsx?|cjs|mjs)$/.test(file))
      .map((file) => `${dir}/${file.replace(/\\/g, '/')}`),
  );
}

const owns = (listed: string, file: string) => {
  const full = path.join(SITE, listed);
  return listed === file || (existsSync(full) && statSync(full).isDirectory() && file.startsWith(`${listed.replace(/\/$/, '')}/`));
};

test("every import of a dependency's internals belongs to an override that pins the file it reaches", () => {
  let found = 0;
  for (const file of ourSources()) {
    const source = readFileSync(path.join(SITE, file), 'utf8');
    for (const [, specifier] of source.matchAll(/(?:^|\n)\s*import\s[^'"]*?from\s+'([^']+)'/g)) {
      const internal = internalFileOf(specifier!);
      if (!internal) continue;
      found += 1;
      const mine = OVERRIDES.filter((o) => o.files.some((listed) => owns(listed, file)));
      assert.ok(mine.length > 0, `${file} imports ${specifier} but belongs to no override of site/overrides.json`);
      assert.ok(
        mine.some((o) => o.pinned.some((pin) => pin.package === internal.package && pin.file === internal.file)),
        `${file} imports ${specifier}: ${mine.map((o) => o.name).join(', ')} must pin ${internal.package}/${internal.file}`,
      );
    }
  }
  // The scan sees the imports it is about (three of theme-common/internal, three @theme-original).
  assert.ok(found >= 6, `only ${found} internal imports found`);
});
