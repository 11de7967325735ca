/**
 * Comments and READMEs name only repository paths that exist.
 *
 * The rule, to keep false positives out: a path is a word that starts with a top-level folder of
 * the repository (`site/`, `indexer/`, `.github/`, `.ci/`…) and is read in a README or other
 * Markdown file, or in a comment of a source file (`//`, `/* … *\/`, and `#` in YAML and shell).
 * It exists when a tracked file or folder has that path, or the path with an extension (a module
 * named as it is imported, `site/overrides` for site/overrides.json), or when git ignores it (build
 * output such as `site/build-stock`). A path holding a placeholder (`<name>`, `*`, `…`) is not checked.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';

const ROOT = execFileSync('git', ['rev-parse', '--show-toplevel'], {cwd: __dirname, encoding: 'utf8'}).trim();
const tracked = execFileSync('git', ['ls-files', '-z'], {cwd: ROOT, encoding: 'utf8'}).split('\0').filter(Boolean);

const TOP_FOLDERS = [...new Set(tracked.filter((f) => f.includes('/')).map((f) => f.split('/')[0]!))];
const FILES = new Set(tracked);
const FOLDERS = new Set(tracked.flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PATH = new RegExp(`(?<![\\w./@-])(?:${TOP_FOLDERS.map(escape).join('|')})/[\\w.~@/<>*…-]*`, 'g');

/** The text a file's paths are read from: all of a Markdown file, the comments of a source file. */
function readable(file: string, text: string): string | undefined {
  if (/\.mdx?$/.test(file)) return /\.mdx$/.test(file) ? undefined : text;
  if (/\.(c|m)?[jt]sx?$/.test(file)) {
    return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/[^\n]*/g)].map((m) => m[0]).join('\n');
  }
  if (/\.(ya?ml|sh)$/.test(file) || file === '.ci/run') return [...text.matchAll(/(?:^|\s)#[^\n]*/g)].map((m) => m[0]).join('\n');
  return undefined;
}

function exists(name: string): boolean {
  if (FILES.has(name) || FOLDERS.has(name)) return true;
  const dir = path.posix.dirname(name);
  const base = path.posix.basename(name);
  return tracked.some((f) => path.posix.dirname(f) === dir && path.posix.basename(f).startsWith(`${base}.`));
}

function ignored(names: string[]): Set<string> {
  if (names.length === 0) return new Set();
  try {
    // Each name also as a folder: an ignored folder's pattern ends with a slash.
    const input = names.flatMap((name) => [name, `${name}/`]).join('\n');
    const out = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], {cwd: ROOT, input, encoding: 'utf8'});
    return new Set(out.split('\n').filter(Boolean).map((name) => name.replace(/\/$/, '')));
  } catch (error) {
    // Exit status 1: none of them is ignored.
    if ((error as {status?: number}).status === 1) return new Set();
    throw error;
  }
}

test('every repository path a comment or README names exists', () => {
  const named: {file: string; name: string}[] = [];
  for (const file of tracked) {
    let text: string;
    try {
      text = readFileSync(path.join(ROOT, file), 'utf8');
    } catch {
      continue;
    }
    const part = readable(file, text);
    if (!part) continue;
    for (const [match] of part.matchAll(PATH)) {
      if (/[<>*…]/.test(match)) continue;
      const name = match.replace(/[.\-~/]+$/, '');
      if (!name.includes('/')) continue;
      named.push({file, name});
    }
  }
  assert.ok(named.length > 100, `only ${named.length} paths found: the scan is broken`);
  const missing = named.filter(({name}) => !exists(name));
  const skip = ignored([...new Set(missing.map((m) => m.name))]);
  const broken = missing.filter(({name}) => !skip.has(name)).map(({file, name}) => `${file}: ${name}`);
  assert.deepEqual(broken, []);
});
