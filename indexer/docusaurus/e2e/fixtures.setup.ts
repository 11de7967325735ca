/**
 * The theme as a user installs it, from a registry: starts a local npm registry (registry.ts)
 * with this repository's three packages published to it, then, in temporary projects outside the
 * repository (no TypeScript tooling), installs each project's own Docusaurus and React (the
 * latest and oldest from the committed locks of e2e/projects, with `npm ci`), then
 * `npm install docusaurus-theme-docs-search`, recording what changed (sites.ts, InstallFacts;
 * e2e/install.spec.ts reads them). The latest project builds the fixture sites (indexer/test/sites
 * and a classic TypeScript site) with the theme's one line added; the oldest builds the brand
 * site, is upgraded to the latest Docusaurus and built again. Each build is served with
 * `docusaurus serve`; two-locales also with `docusaurus start --locale fr`. Returns the teardown.
 *
 * THEME_E2E_DIR=<folder> keeps that folder (made on the first run, reused while it has builds)
 * for quick reruns while working on the tests.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync} from 'node:fs';
import {cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {PROJECT_FILES, checkProjects, projectFolder, repositoryVersion} from './projects.ts';
import {OUR_PACKAGES, runCommand, startRegistry, userEnv, type Registry} from './registry.ts';
import {
  ALGOLIA_SITE_OPTIONS,
  BELOW_RANGE_DOCUSAURUS,
  DEV_SERVER_HOME,
  FIXTURE_SITES,
  ZOD4_TREES,
  algoliaSiteOrigin,
  devServerOrigin,
  originOf,
  type FixtureSite,
  type InstallFacts,
  type InstallProject,
  type TreeFacts,
  type Zod4Tree,
} from './sites.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const theme = path.resolve(here, '..');
const indexerSites = path.resolve(theme, '..', 'test', 'sites');

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command to its end (never throws): its exit code and its output, stdout then stderr. */
async function exec(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const {code, stdout, stderr} = await runCommand(command, args, cwd, env);
  return {code, output: `${stdout}\n${stderr}`};
}

async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await exec(command, args, cwd, env);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${result.output}`);
  return result.output;
}

const NPM_INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund'];
const NPM_CI = ['ci', '--prefer-offline', '--no-audit', '--no-fund'];

/** package-lock.json's packages: path → version (the root project left out). */
async function lockedVersions(project: string): Promise<Record<string, string>> {
  const lock = JSON.parse(await readFile(path.join(project, 'package-lock.json'), 'utf8')) as {packages: Record<string, {version?: string}>};
  return Object.fromEntries(Object.entries(lock.packages).filter(([key]) => key !== '').map(([key, {version}]) => [key, version ?? '']));
}

/** Lock entries of `from` that `to` does not hold at the same version, and those `to` adds: "<path>: <from> -> <to>". */
function changedVersions(from: Record<string, string>, to: Record<string, string>): string[] {
  return [...new Set([...Object.keys(from), ...Object.keys(to)])].filter((key) => from[key] !== to[key]).map((key) => `${key}: ${from[key] ?? 'none'} -> ${to[key] ?? 'none'}`);
}

/** `npm ls --all --parseable --long`: "<path below the project> <name>@<version>" for each installed package. */
async function installedPackages(project: string): Promise<string[]> {
  const listed = await exec('npm', ['ls', '--all', '--parseable', '--long'], project);
  return listed.output
    .split('\n')
    .filter((line) => line.startsWith(project + path.sep))
    .map((line) => {
      const [folder, id] = line.split(':');
      return `${path.relative(project, folder!)} ${id}`;
    })
    .sort();
}

async function emptyFolders(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, {withFileTypes: true})) {
    if (!entry.isDirectory()) continue;
    const child = path.join(folder, entry.name);
    if ((await readdir(child)).length === 0) found.push(child);
    else if (entry.name !== '.cache') found.push(...(await emptyFolders(child)));
  }
  return found;
}

/**
 * Every file named by the `exports` of our installed packages (each condition's target: types
 * too) that is not in the installed package, and every subpath that plain Node does not resolve
 * to a file of it: "<package><subpath> -> <target>: why".
 */
async function missingExports(project: string): Promise<string[]> {
  const script = `
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
const missing = [];
for (const name of ${JSON.stringify(OUR_PACKAGES)}) {
  const root = path.join('node_modules', name);
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const targets = (value, out = []) => {
    if (typeof value === 'string') out.push(value);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) targets(v, out);
    return out;
  };
  const exportsField = typeof manifest.exports === 'string' || !Object.keys(manifest.exports ?? {}).some((k) => k.startsWith('.')) ? {'.': manifest.exports} : manifest.exports;
  for (const [subpath, value] of Object.entries(exportsField ?? {})) {
    for (const target of targets(value)) if (!existsSync(path.join(root, target))) missing.push(name + subpath.slice(1) + ' -> ' + target + ': not in the package');
    if (subpath.includes('*')) continue;
    try {
      const file = fileURLToPath(import.meta.resolve(name + subpath.slice(1)));
      if (!existsSync(file)) missing.push(name + subpath.slice(1) + ' -> ' + file + ': resolves to no file');
    } catch (error) {
      missing.push(name + subpath.slice(1) + ': ' + String(error.message).split('\\n')[0]);
    }
  }
}
console.log(JSON.stringify(missing));
`;
  const checked = await exec(process.execPath, ['--input-type=module', '-e', script], project);
  if (checked.code !== 0) return [`the exports check failed: ${checked.output}`];
  return JSON.parse(checked.output.trim().split('\n')[0] ?? '[]') as string[];
}

/**
 * A user's project: its own Docusaurus and React, then the theme. The latest and oldest projects
 * are the committed files of e2e/projects (projects.ts) installed with `npm ci` (through the local
 * registry: npm replaces registry.npmjs.org in the lock's `resolved` with the configured one), as a
 * site's checkout is; below the range is a package.json alone. What the theme's install changed
 * is written to install-facts.json.
 */
async function installProject(registry: Registry, project: string, kind: InstallProject): Promise<{facts: InstallFacts; ciBefore: Run}> {
  await mkdir(project, {recursive: true});
  await writeFile(path.join(project, '.npmrc'), registry.npmrc);
  for (const file of PROJECT_FILES) await cp(path.join(projectFolder(kind), file), path.join(project, file));
  const {dependencies} = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {dependencies: Record<string, string>};
  const facts: InstallFacts = {project: kind, docusaurus: dependencies['@docusaurus/core'] ?? '', react: dependencies.react ?? '', install: {code: null, output: ''}, before: {}, after: {}};
  // The lock from before the theme, installed as a deploy does (the latest project's deploy check, ciCopy, reads its outcome).
  const ciBefore = await step(`npm ci (${kind})`, () => exec('npm', NPM_CI, project));
  if (ciBefore.code !== 0) {
    // npm ci refuses a lock that lacks packages its entries name (the latest project's: @swc/html's
    // platform packages that the registry does not have, TROUBLESHOOTING.md) before installing
    // anything; the site's own developers then install from it with npm install, which keeps
    // the lock's versions and fetches no package the lock names.
    if (!/Missing: \S+ from lock file/.test(ciBefore.output)) throw new Error(`npm ci of e2e/projects/${kind} failed (rewrite it with npm run e2e:projects):\n${ciBefore.output}`);
    await step(`npm install from the lock (${kind})`, () => run('npm', NPM_INSTALL, project));
  }
  if (kind === 'latest') facts.themeCommonBefore = await exec('npm', ['ls', '@docusaurus/theme-common'], project);
  facts.before = await lockedVersions(project);
  const moved = changedVersions(await lockedVersions(projectFolder(kind)), facts.before);
  if (moved.length) throw new Error(`installing e2e/projects/${kind} changed its lock (rewrite it with npm run e2e:projects): ${moved.join(', ')}`);
  facts.lsBefore = await installedPackages(project);
  // A folder empty before the theme's install is not its doing.
  const emptyBefore = new Set(await emptyFolders(path.join(project, 'node_modules')));
  facts.install = await step(`npm install docusaurus-theme-docs-search (${kind})`, () => exec('npm', [...NPM_INSTALL, 'docusaurus-theme-docs-search'], project));
  facts.after = await lockedVersions(project);
  facts.lsAfter = await installedPackages(project);
  facts.ls = await exec('npm', ['ls'], project);
  facts.emptyFolders = (await emptyFolders(path.join(project, 'node_modules'))).filter((f) => !emptyBefore.has(f)).map((f) => path.relative(project, f));
  facts.imported = await exec(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('docusaurus-theme-docs-search'); console.log(Object.keys(m).join(' '))"],
    project,
  );
  facts.exportsMissing = await missingExports(project);
  if (kind === 'latest') facts.themeCommonAfter = await exec('npm', ['ls', '@docusaurus/theme-common'], project);
  await writeFile(path.join(project, 'install-facts.json'), `${JSON.stringify(facts, null, 2)}\n`);
  return {facts, ciBefore};
}

/** Below the range: npm must refuse the theme. Its dependency tree is resolved, not installed. */
async function resolveBelow(registry: Registry, project: string): Promise<InstallFacts> {
  await mkdir(project, {recursive: true});
  await writeFile(path.join(project, '.npmrc'), registry.npmrc);
  const dependencies = {'@docusaurus/core': BELOW_RANGE_DOCUSAURUS, '@docusaurus/preset-classic': BELOW_RANGE_DOCUSAURUS, react: '^17.0.2', 'react-dom': '^17.0.2'};
  await writeFile(path.join(project, 'package.json'), `${JSON.stringify({name: 'below-site', version: '1.0.0', private: true, dependencies}, null, 2)}\n`);
  const facts: InstallFacts = {project: 'below', docusaurus: BELOW_RANGE_DOCUSAURUS, react: '^17.0.2', install: {code: null, output: ''}, before: {}, after: {}};
  facts.install = await exec('npm', [...NPM_INSTALL, '--package-lock-only', 'docusaurus-theme-docs-search'], project);
  await writeFile(path.join(project, 'install-facts.json'), `${JSON.stringify(facts, null, 2)}\n`);
  return facts;
}

/** Runs `import()` of each module in plain Node in `project`; prints what each exports. */
function importIn(project: string, modules: string[], then = ''): Promise<Run> {
  const script = `${modules.map((name, i) => `const m${i} = await import(${JSON.stringify(name)}); console.log(${JSON.stringify(name)}, Object.keys(m${i}).length);`).join(' ')} ${then}`;
  return exec(process.execPath, ['--input-type=module', '-e', script], project);
}

/** A copy of what `npm ci` reads (package.json, package-lock.json, .npmrc) in `to`. */
async function copyLock(project: string, to: string): Promise<void> {
  await mkdir(to, {recursive: true});
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) await cp(path.join(project, file), path.join(to, file));
}

/**
 * The latest project's new lock as a deploy uses it: copied to `${project}-ci`, then `npm ci`
 * there (an empty node_modules: as `rm -rf node_modules && npm ci`), `npm ls --all` and the theme's
 * import in plain Node; with `before`, the `npm ci` of the lock from before the theme's install
 * that made the project (installProject).
 */
async function ciCopy(project: string, before: Run): Promise<NonNullable<InstallFacts['ci']>> {
  const copy = `${project}-ci`;
  await copyLock(project, copy);
  const install = await exec('npm', NPM_CI, copy);
  return {
    command: 'npm ci',
    install,
    ls: await exec('npm', ['ls', '--all'], copy),
    imported: await importIn(copy, ['docusaurus-theme-docs-search']),
    before,
  };
}

/**
 * The oldest project's new lock as a deploy reads it, without installing the same lock a second
 * time: `npm ci --dry-run` in a copy of what npm ci reads (npm ci's own check that package.json and
 * the lock agree, where a deploy of a bad lock stops: "Missing: … from lock file", "lock file's
 * zod@ does not satisfy …"), then `npm ls --all` and the theme's import in the project, whose
 * node_modules `npm install` built from that very lock. Run before anything else installs there.
 */
async function ciCheck(project: string): Promise<NonNullable<InstallFacts['ci']>> {
  const copy = `${project}-ci`;
  await copyLock(project, copy);
  return {
    command: 'npm ci --dry-run',
    install: await exec('npm', [...NPM_CI, '--dry-run'], copy),
    ls: await exec('npm', ['ls', '--all'], project),
    imported: await importIn(project, ['docusaurus-theme-docs-search']),
  };
}

/** Each package's entry points, imported in a tree's plain-Node check; the record schema (zod) parses a record list. */
const TREE_IMPORTS: Record<Zod4Tree, {modules: string[]; then: string}> = {
  'docs-search': {modules: ['docs-search', 'docs-search/record', 'docs-search/shards'], then: "console.log('parsed', m1.recordListSchema.parse([]).length);"},
  'docs-indexer': {modules: ['docs-indexer', 'docs-indexer/extract'], then: "console.log('parsed', m0.recordListSchema.parse([]).length);"},
};

/**
 * A tree without Docusaurus (sites.ts, ZOD4_TREES): `npm init -y && npm i zod@4`, then `npm i
 * <package>` from the registry; the install's outcome, then `rm -rf node_modules && npm ci` on the
 * new lock and the same checks again (tree-facts.json).
 */
async function installTree(registry: Registry, project: string, name: Zod4Tree): Promise<TreeFacts> {
  await mkdir(project, {recursive: true});
  await writeFile(path.join(project, '.npmrc'), registry.npmrc);
  await run('npm', ['init', '-y'], project);
  await run('npm', [...NPM_INSTALL, 'zod@4'], project);
  const before = await lockedVersions(project);
  const install = await exec('npm', [...NPM_INSTALL, name], project);
  const after = await lockedVersions(project);
  const ls = await exec('npm', ['ls', '--all'], project);
  const empty = (await emptyFolders(path.join(project, 'node_modules'))).map((f) => path.relative(project, f));
  const imported = await importIn(project, TREE_IMPORTS[name].modules, TREE_IMPORTS[name].then);
  await rm(path.join(project, 'node_modules'), {recursive: true, force: true});
  const ci = await exec('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], project);
  const facts: TreeFacts = {
    package: name,
    before,
    after,
    install,
    ls,
    emptyFolders: empty,
    imported,
    ci,
    lsAfterCi: await exec('npm', ['ls', '--all'], project),
    importedAfterCi: await importIn(project, TREE_IMPORTS[name].modules, TREE_IMPORTS[name].then),
    afterCi: await lockedVersions(project),
  };
  await writeFile(path.join(project, 'tree-facts.json'), `${JSON.stringify(facts, null, 2)}\n`);
  return facts;
}

/** A fixture's sources (not its committed html/) with `themes: ['docusaurus-theme-docs-search']` added. */
async function copyFixture(name: Exclude<FixtureSite, 'brand'>, to: string): Promise<void> {
  const from = name === 'classic-ts' ? path.join(here, 'classic-ts') : path.join(indexerSites, name);
  await cp(from, to, {recursive: true, filter: (file) => !/[\\/](html|\.docusaurus|build|node_modules)$/.test(file)});
  if (name === 'classic-ts') return; // its config has the line already
  const configFile = path.join(to, 'docusaurus.config.js');
  const config = await readFile(configFile, 'utf8');
  if (/\bthemes:/.test(config)) throw new Error(`${name}: the fixture has its own themes list; add the theme there`);
  await writeFile(configFile, config.replace(/^export default \{$/m, "export default {\n  themes: ['docusaurus-theme-docs-search'],"));
}

/**
 * The brand site: its own config and colours (e2e/brand-site), the classic site's pages. Its
 * builds get no persistent cache, as every build here (build(), DOCUSAURUS_NO_PERSISTENT_CACHE):
 * Docusaurus 3.0 knows no such variable and always gives webpack a filesystem cache, which a
 * site built once only pays for (snapshots of its dependencies, the cache written after the
 * build); a plugin of the copy's config sets webpack's `cache: false` instead.
 */
async function copyBrandSite(to: string): Promise<void> {
  await cp(path.join(here, 'brand-site'), to, {recursive: true});
  for (const part of ['docs', 'blog', path.join('src', 'pages')]) {
    await cp(path.join(here, 'classic-ts', part), path.join(to, part), {recursive: true});
  }
  const configFile = path.join(to, 'docusaurus.config.js');
  const config = await readFile(configFile, 'utf8');
  if (/\bplugins:/.test(config)) throw new Error('brand-site: the fixture has its own plugins list; add the cache plugin there');
  await writeFile(
    configFile,
    config.replace(/^export default \{$/m, "export default {\n  plugins: [() => ({name: 'no-persistent-cache', configureWebpack: () => ({cache: false})})],"),
  );
}

const docusaurusBin = (project: string) => path.join(project, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs');

// One build at a time per project (prepare says why two projects build side by side). Each site is built once, so Rspack's persistent
// cache (node_modules/.cache, shared by the sites here) would only cost time; with it, the second
// locale's pages of two-locales pointed at scripts written into the first locale's folder.
const build = (project: string, site: string, ...args: string[]) =>
  exec(process.execPath, [docusaurusBin(project), 'build', site, ...args], project, {DOCUSAURUS_NO_PERSISTENT_CACHE: 'true'});

async function mustBuild(project: string, site: string, ...args: string[]): Promise<void> {
  const built = await build(project, site, ...args);
  if (built.code !== 0) throw new Error(`docusaurus build ${site} failed:\n${built.output}`);
}

/** Runs a step of the setup and prints how long it took (the setup is most of this suite's time). */
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    process.stderr.write(`theme e2e setup: ${name} took ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

/** The install's outcome: the theme must have installed. */
function mustHaveInstalled(facts: InstallFacts): InstallFacts {
  if (facts.install.code !== 0) throw new Error(`npm install docusaurus-theme-docs-search failed in the ${facts.project} project:\n${facts.install.output}`);
  return facts;
}

/** The latest project: installed, then the fixture sites built one after the other. */
async function prepareLatest(registry: Registry, latest: string): Promise<void> {
  const installed = await step('install (latest)', () => installProject(registry, latest, 'latest'));
  const latestFacts = mustHaveInstalled(installed.facts);
  // npm ci of the new lock, in a copy of the project, beside the builds (an install mostly waits on the network).
  const ci = step('npm ci (latest, a copy)', () => ciCopy(latest, installed.ciBefore));
  const modules = await readdir(path.join(latest, 'node_modules'));
  for (const tool of ['typescript', 'tsx', 'ts-node']) {
    if (modules.includes(tool)) throw new Error(`${tool} was installed: the site must work without TypeScript tooling`);
  }

  for (const name of FIXTURE_SITES) {
    const site = path.join(latest, 'sites', name);
    await copyFixture(name, site);
    await step(`build ${name}`, () => mustBuild(latest, site));
  }
  // versioned-blog in Algolia mode: the classic preset adds @docusaurus/theme-search-algolia, and
  // this theme's components must still be the ones used. With options: the index it still
  // writes leaves out the pages plugin's pages and the blog's tag pages.
  const algoliaSite = path.join(latest, 'sites', 'versioned-blog-algolia');
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
  await step('build versioned-blog-algolia', () => mustBuild(latest, algoliaSite));
  latestFacts.ci = await ci;
  await writeFile(path.join(latest, 'install-facts.json'), `${JSON.stringify(latestFacts, null, 2)}\n`);
}

/**
 * The oldest project: installed, the brand site built with the oldest Docusaurus the theme
 * serves; then the site upgrades Docusaurus to the latest 3.x and builds again (into another
 * folder: the tests serve the first, and read only that the second built). Neither build is
 * minified: terser is most of the time of a webpack build, and the four sites of the latest
 * project serve the theme minified (SWC), as a production build does.
 */
async function prepareOldest(registry: Registry, oldest: string, latestDocusaurus: string): Promise<void> {
  const oldestFacts = mustHaveInstalled((await step('install (oldest)', () => installProject(registry, oldest, 'oldest'))).facts);
  const brand = path.join(oldest, 'sites', 'brand');
  await copyBrandSite(brand);
  // The lock's check reads node_modules: beside the build, and done before the upgrade installs.
  const ci = step('npm ci --dry-run, npm ls --all (oldest)', () => ciCheck(oldest));
  await step('build brand (oldest)', () => mustBuild(oldest, brand, '--no-minify'));
  oldestFacts.ci = await ci;
  const upgradeInstall = await step('upgrade install', () => exec('npm', [...NPM_INSTALL, `@docusaurus/core@${latestDocusaurus}`, `@docusaurus/preset-classic@${latestDocusaurus}`], oldest));
  oldestFacts.upgrade = {
    to: latestDocusaurus,
    install: upgradeInstall,
    ls: await exec('npm', ['ls'], oldest),
    after: await lockedVersions(oldest),
    build: upgradeInstall.code === 0 ? await step('build brand (upgraded)', () => build(oldest, brand, '--no-minify', '--out-dir', path.join(brand, 'build-upgraded'))) : {code: null, output: 'not run'},
  };
  await writeFile(path.join(oldest, 'install-facts.json'), `${JSON.stringify(oldestFacts, null, 2)}\n`);
}

async function prepare(dir: string): Promise<void> {
  // The committed projects first: a stale one stops the run here, saying how to rewrite it.
  await checkProjects();
  const registry = await step('registry and publish', () => startRegistry(path.join(dir, 'registry')));
  try {
    const latestDocusaurus = repositoryVersion('@docusaurus/core');
    // The three projects side by side, each its installs and then its builds in turn: an install
    // waits on the network more than on the processor, and a build of a small site keeps about
    // one core busy (the oldest project's webpack build less), so two builds share the machine's two.
    // Every one settles before the registry stops, so that a failure is reported with its cause.
    const settled = await Promise.allSettled([
      prepareLatest(registry, path.join(dir, 'latest')),
      prepareOldest(registry, path.join(dir, 'oldest'), latestDocusaurus),
      step('install (below the range)', () => resolveBelow(registry, path.join(dir, 'below'))).then(async () => {
        for (const name of ZOD4_TREES) await step(`tree: zod 4, then ${name}`, () => installTree(registry, path.join(dir, 'trees', name), name));
      }),
    ]);
    const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    await writeFile(path.join(dir, 'built'), new Date().toISOString());
  } finally {
    await registry.stop();
  }
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
  process.env.THEME_E2E_RUN_DIR = dir;
  if (!kept || !existsSync(path.join(dir, 'built'))) {
    await mkdir(dir, {recursive: true});
    await prepare(dir);
  }
  const latest = path.join(dir, 'latest');
  const servers: ChildProcess[] = [];
  const start = async (project: string, args: string[], origin: string, probe = origin) => {
    const server = spawn(process.execPath, [docusaurusBin(project), ...args, '--port', new URL(origin).port, '--host', 'localhost', '--no-open'], {cwd: project, env: userEnv()});
    let output = '';
    server.stdout?.on('data', (d) => (output += d));
    server.stderr?.on('data', (d) => (output += d));
    servers.push(server);
    await waitFor(probe, server, () => output);
  };
  // Each server on a port of its own, all started at once (each loads its site's config and plugins
  // first); the development server, on the French locale of two-locales, answers once its first
  // compilation is done.
  const started = await step('servers', () =>
    Promise.allSettled([
      ...FIXTURE_SITES.map((name) => start(latest, ['serve', path.join(latest, 'sites', name)], originOf(name))),
      start(latest, ['serve', path.join(latest, 'sites', 'versioned-blog-algolia')], algoliaSiteOrigin()),
      start(path.join(dir, 'oldest'), ['serve', path.join(dir, 'oldest', 'sites', 'brand')], originOf('brand')),
      start(latest, ['start', path.join(latest, 'sites', 'two-locales'), '--locale', 'fr'], devServerOrigin(), `${devServerOrigin()}${DEV_SERVER_HOME}`),
    ]),
  );
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    for (const server of servers) server.kill();
    throw failed.reason;
  }
  return async () => {
    for (const server of servers) server.kill();
    if (!kept) await rm(dir, {recursive: true, force: true});
  };
}
