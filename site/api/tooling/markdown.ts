/**
 * A small scanner for the Markdown/MDX sources in site/docs: fenced code blocks, pipe tables and
 * the API placeholders. Enough for the content tests; the real rendering is Docusaurus' job.
 */
import {readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';

export const DOCS_DIR = path.resolve(__dirname, '..', '..', 'docs');

export type DocPage = {id: string; file: string; source: string};

/** Every page under site/docs, with its doc id (`v1/state`, `introduction`, …). */
export function docPages(dir = DOCS_DIR, prefix = ''): DocPage[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return docPages(full, `${prefix}${name}/`);
      if (!/\.mdx?$/.test(name)) return [];
      return [{id: `${prefix}${name.replace(/\.mdx?$/, '')}`, file: full, source: readFileSync(full, 'utf8')}];
    });
}

export type CodeBlock = {lang: string; meta: Record<string, string>; rawMeta: string; value: string; line: number};

/** Fenced code blocks (``` or ~~~, any indentation), in order. */
export function codeBlocks(source: string): CodeBlock[] {
  const lines = source.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(`{3,}|~{3,})([\w+-]*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[j]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      body.push(lines[j]!);
    }
    const indent = /^\s*/.exec(lines[i]!)![0].length;
    blocks.push({
      lang: open[2] ?? '',
      rawMeta: open[3] ?? '',
      meta: parseAttributes(open[3] ?? ''),
      value: body.map((l) => l.slice(Math.min(indent, /^\s*/.exec(l)![0].length))).join('\n'),
      line: i + 1,
    });
    i = j;
  }
  return blocks;
}

/** `key="value"` and `key=value` pairs. */
export function parseAttributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w-]+)=(?:"([^"]*)"|'([^']*)'|\{?"?([^\s"'}]+)"?\}?)/g)) {
    out[m[1]!] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return out;
}

/** The source with fenced code blocks blanked out (line numbers kept). */
export function withoutCode(source: string): string {
  const lines = source.split('\n');
  for (const block of codeBlocks(source)) {
    const count = block.value.split('\n').length + 2;
    for (let k = block.line - 1; k < block.line - 1 + count && k < lines.length; k++) lines[k] = '';
  }
  return lines.join('\n');
}

export type Table = {header: string[]; rows: string[][]; line: number};

function cells(row: string): string[] {
  const trimmed = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((c) => c.trim());
}

/** GFM pipe tables outside code blocks. */
export function tables(source: string): Table[] {
  const lines = withoutCode(source).split('\n');
  const out: Table[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.trim().startsWith('|') || !/^\s*\|?\s*:?-{3,}/.test(lines[i + 1]!)) continue;
    const header = cells(lines[i]!);
    const rows: string[][] = [];
    let j = i + 2;
    for (; j < lines.length && lines[j]!.trim().startsWith('|'); j++) rows.push(cells(lines[j]!));
    out.push({header, rows, line: i + 1});
    i = j;
  }
  return out;
}

export type JsxUsage = {name: string; attributes: Record<string, string>; line: number};

/** Self-closing placeholders such as `<ApiFields api="v1" schema="P1MeterData" />`. */
export function jsxUsages(source: string, name: string): JsxUsage[] {
  const text = withoutCode(source);
  const out: JsxUsage[] = [];
  for (const m of text.matchAll(new RegExp(`<${name}\\b([^>]*?)/>`, 'g'))) {
    out.push({name, attributes: parseAttributes(m[1]!), line: text.slice(0, m.index).split('\n').length});
  }
  return out;
}

/** Names written as inline code in a table cell: "`a`, `b`" → ["a", "b"]. */
export function inlineCodes(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}
