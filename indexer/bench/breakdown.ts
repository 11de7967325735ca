/**
 * What the first visit's JavaScript is made of. Lighthouse gives the scripts the page loaded and
 * the gzipped bytes of each; a build of the same site with hidden source maps
 * (source-maps.config.ts, into site/build-source-maps) says which source file each byte of a
 * minified script comes from. Each script's gzipped bytes are shared among the parts (React, the
 * router, Docusaurus's core and theme, search, the page's own content…) in proportion to their
 * minified bytes in it: gzip does not compress every part alike, so the shares are close, not exact;
 * their sum is the measured total.
 */
import {existsSync} from 'node:fs';
import {readFile, readdir} from 'node:fs/promises';
import path from 'node:path';
import {SourceMapConsumer, type RawSourceMap} from 'source-map-js';
import {shortName, type ScriptTransfer} from './lighthouse.ts';

/** A part of the bundle, matched on the source file's path (the first rule that matches wins). */
const PARTS: [name: string, test: RegExp][] = [
  ['React (react, react-dom, scheduler)', /node_modules\/(react|react-dom|scheduler)\//],
  ['router (react-router, history)', /node_modules\/(react-router|react-router-dom|react-router-config|history|path-to-regexp|tiny-invariant|tiny-warning|resolve-pathname|value-equal)\//],
  ['search (theme, engine, DocSearch)', /node_modules\/(@docsearch|docusaurus-theme-docs-search|docs-search|algoliasearch|@algolia)\/|indexer\/(docusaurus|search)\//],
  ['Docusaurus core (client, generated routes)', /node_modules\/@docusaurus\/core\/|\.docusaurus\//],
  ['Docusaurus theme (classic, common, plugins)', /node_modules\/@docusaurus\//],
  ['head (react-helmet-async)', /node_modules\/(react-helmet-async|react-fast-compare|shallowequal|invariant)\//],
  ['page content (docs, MDX)', /\/(docs|blog|i18n)\/|node_modules\/@mdx-js\//],
  ['site code (site/src, plugins)', /(^|\/)(site\/)?(src|plugins)\//],
  ['bundler runtime', /^webpack\/|webpack\/runtime|rspack|\(webpack\)/],
  ['other packages', /node_modules\//],
];
const UNMAPPED = 'not mapped (bundler glue)';

export interface BreakdownPart {
  part: string;
  /** Gzipped bytes transferred, this part's share. */
  bytes: number;
  /** The packages or folders it comes from, largest first (minified bytes). */
  from: string[];
}

export interface ScriptBreakdown {
  file: string;
  bytes: number;
  parts: {part: string; bytes: number}[];
}

export interface Breakdown {
  totalBytes: number;
  parts: BreakdownPart[];
  scripts: ScriptBreakdown[];
  /** Why the parts are missing, when they are. */
  note?: string;
}

/** A chunk's name: its file name before the content hash (main.1a2b3c.js → main). */
const chunkName = (file: string) => path.basename(file).split('.')[0] ?? file;

/** `node_modules/@scope/name` or `node_modules/name`, or the first two folders of a path of ours. */
function origin(source: string): string {
  const nm = /.*node_modules\/((@[^/]+\/)?[^/]+)/.exec(source);
  if (nm) return nm[1]!;
  const ours = clean(source).replace(/^.*\/site\//, '').replace(/^(\.\.?\/)+/, '');
  return ours.split('/').slice(0, 2).join('/');
}

/** A source's path without the bundler's `webpack://<project>/` prefix. */
const clean = (source: string) => source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^[a-z]+\|/, '');

function partOf(source: string): string {
  if (source === UNMAPPED) return UNMAPPED;
  const normalised = `/${clean(source)}`;
  return PARTS.find(([, test]) => test.test(normalised))?.[0] ?? 'site code (site/src, plugins)';
}

/** Minified bytes of `code` per source file, from its source map. */
function bytesPerSource(code: string, map: RawSourceMap): Map<string, number> {
  const consumer = new SourceMapConsumer(map);
  const lines = code.split('\n');
  const perSource = new Map<string, number>();
  const add = (source: string, n: number) => perSource.set(source, (perSource.get(source) ?? 0) + n);
  let mapped = 0;
  // Mappings in generated order: each one owns the bytes up to the next on its line.
  let previous: {line: number; column: number; source: string | null} | undefined;
  const close = (line: number, column: number) => {
    if (!previous) return;
    const text = lines[previous.line - 1] ?? '';
    const end = line === previous.line ? column : text.length;
    const n = Buffer.byteLength(text.slice(previous.column, end));
    if (previous.source) {
      add(previous.source, n);
      mapped += n;
    }
  };
  consumer.eachMapping((m) => {
    close(m.generatedLine, m.generatedColumn);
    previous = {line: m.generatedLine, column: m.generatedColumn, source: m.source ?? null};
  }, undefined, SourceMapConsumer.GENERATED_ORDER);
  close(Number.MAX_SAFE_INTEGER, 0);
  add(UNMAPPED, Math.max(0, Buffer.byteLength(code) - mapped));
  return perSource;
}

/** The files of `dir/assets/js` by chunk name. */
async function scriptsByChunk(dir: string): Promise<Map<string, string>> {
  const js = path.join(dir, 'assets', 'js');
  const out = new Map<string, string>();
  for (const file of await readdir(js)) if (file.endsWith('.js')) out.set(chunkName(file), path.join(js, file));
  return out;
}

/**
 * Shares each script's transferred bytes among the parts, from the source-mapped build
 * `mapsDir` (the same site, built with source-maps.config.ts; its chunks have the same names).
 */
export async function breakdown(scripts: readonly ScriptTransfer[], mapsDir: string): Promise<Breakdown> {
  const totalBytes = scripts.reduce((sum, s) => sum + s.bytes, 0);
  if (!existsSync(path.join(mapsDir, 'assets', 'js'))) {
    return {totalBytes, parts: [], scripts: scripts.map((s) => ({file: shortName(s.url), bytes: s.bytes, parts: []})), note: `${mapsDir} is missing: no source maps`};
  }
  const mapped = await scriptsByChunk(mapsDir);
  const parts = new Map<string, {bytes: number; from: Map<string, number>}>();
  const perScript: ScriptBreakdown[] = [];
  for (const script of scripts) {
    const file = shortName(script.url);
    const twin = file.endsWith('.js') ? mapped.get(chunkName(file)) : undefined;
    const mapFile = twin && `${twin}.map`;
    if (!twin || !mapFile || !existsSync(mapFile)) {
      // An inline or unmapped script: counted whole under its own name.
      const name = `${file} (no source map)`;
      parts.set(name, {bytes: (parts.get(name)?.bytes ?? 0) + script.bytes, from: new Map()});
      perScript.push({file, bytes: script.bytes, parts: [{part: name, bytes: script.bytes}]});
      continue;
    }
    const sources = bytesPerSource(await readFile(twin, 'utf8'), JSON.parse(await readFile(mapFile, 'utf8')) as RawSourceMap);
    const minified = [...sources.values()].reduce((a, b) => a + b, 0) || 1;
    const mine = new Map<string, number>();
    for (const [source, n] of sources) {
      const part = partOf(source);
      const share = (script.bytes * n) / minified;
      const entry = parts.get(part) ?? {bytes: 0, from: new Map<string, number>()};
      entry.bytes += share;
      entry.from.set(origin(source), (entry.from.get(origin(source)) ?? 0) + n);
      parts.set(part, entry);
      mine.set(part, (mine.get(part) ?? 0) + share);
    }
    perScript.push({
      file,
      bytes: script.bytes,
      parts: [...mine].map(([part, bytes]) => ({part, bytes: Math.round(bytes)})).sort((a, b) => b.bytes - a.bytes),
    });
  }
  return {
    totalBytes,
    parts: [...parts]
      .map(([part, {bytes, from}]) => ({
        part,
        bytes: Math.round(bytes),
        from: [...from].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([name]) => name),
      }))
      .sort((a, b) => b.bytes - a.bytes),
    scripts: perScript,
  };
}

/** The breakdown as lines of text. */
export function formatBreakdown(page: string, b: Breakdown, budgetKB: number): string {
  const kb = (n: number) => (n / 1024).toFixed(1).padStart(6);
  const out = [`First-visit JavaScript on ${page}: ${kb(b.totalBytes).trim()} KB gzip (budget ${budgetKB} KB), by part (each script's bytes shared by minified size):`];
  for (const p of b.parts) out.push(`  ${p.part.padEnd(46)}${kb(p.bytes)} KB${p.from.length ? `   ${p.from.join(', ')}` : ''}`);
  out.push('  by script:');
  for (const s of b.scripts) {
    const top = s.parts.slice(0, 3).map((p) => `${p.part.split(' (')[0]} ${(p.bytes / 1024).toFixed(1)}`).join(', ');
    out.push(`  ${s.file.padEnd(46)}${kb(s.bytes)} KB${top ? `   ${top}` : ''}`);
  }
  if (b.note) out.push(`  note: ${b.note}`);
  return out.join('\n');
}
