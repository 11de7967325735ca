/**
 * Reading the Markdown/MDX sources in site/docs for the content tests: code blocks, tables and the
 * API placeholders, from the syntax tree remark builds (the parser Docusaurus uses), not from
 * regular expressions over the text.
 */
import {readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import {unified} from 'unified';

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

type Point = {line: number; offset?: number};
type MdNode = {
  type: string;
  name?: string | null;
  lang?: string | null;
  meta?: string | null;
  value?: string;
  attributes?: {type: string; name?: string; value?: unknown}[];
  children?: MdNode[];
  position?: {start: Point; end: Point};
};

// MDX (JSX and expressions), GFM tables and front matter: what Docusaurus parses the pages with.
const processor = unified().use(remarkParse).use(remarkFrontmatter).use(remarkMdx).use(remarkGfm);
const trees = new Map<string, MdNode>();

/** The Markdown syntax tree of a page source (cached: every check reads the same pages). */
export function markdownTree(source: string): MdNode {
  const hit = trees.get(source);
  if (hit) return hit;
  const tree = processor.parse(source) as unknown as MdNode;
  trees.set(source, tree);
  return tree;
}

function nodes(tree: MdNode, test: (node: MdNode) => boolean, out: MdNode[] = []): MdNode[] {
  if (test(tree)) out.push(tree);
  for (const child of tree.children ?? []) nodes(child, test, out);
  return out;
}

/** Fenced (and indented) code blocks, in order, wherever they sit (lists, JSX elements, …). */
export function codeBlocks(source: string): CodeBlock[] {
  return nodes(markdownTree(source), (n) => n.type === 'code').map((n) => ({
    lang: n.lang ?? '',
    rawMeta: n.meta ?? '',
    meta: parseAttributes(n.meta ?? ''),
    value: n.value ?? '',
    line: n.position!.start.line,
  }));
}

/** `key="value"` and `key=value` pairs. */
export function parseAttributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w-]+)=(?:"([^"]*)"|'([^']*)'|\{?"?([^\s"'}]+)"?\}?)/g)) {
    out[m[1]!] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return out;
}

/** The source with code blocks blanked out (line numbers kept). */
export function withoutCode(source: string): string {
  const lines = source.split('\n');
  for (const n of nodes(markdownTree(source), (node) => node.type === 'code')) {
    for (let k = n.position!.start.line - 1; k < n.position!.end.line && k < lines.length; k++) lines[k] = '';
  }
  return lines.join('\n');
}

export type Table = {header: string[]; rows: string[][]; line: number};

/** The Markdown source of a node's content, as written (so `inline code` keeps its backticks). */
function sourceOf(source: string, node: MdNode): string {
  const kids = node.children ?? [];
  // A table cell's own position includes its pipes; its children span the content only.
  if (!kids.length) return '';
  return source.slice(kids[0]!.position!.start.offset, kids[kids.length - 1]!.position!.end.offset).trim();
}

/** GFM tables; each cell as its Markdown source. */
export function tables(source: string): Table[] {
  return nodes(markdownTree(source), (n) => n.type === 'table').map((table) => {
    const [head, ...body] = (table.children ?? []).map((row) => (row.children ?? []).map((cell) => sourceOf(source, cell)));
    return {header: head ?? [], rows: body, line: table.position!.start.line};
  });
}

export type JsxUsage = {name: string; attributes: Record<string, string>; line: number};

/**
 * JSX elements such as `<ApiFields api="v1" schema="P1MeterData" />`, as block or inline. Only
 * plain string attribute values are read (the remark plugin accepts no others).
 */
export function jsxUsages(source: string, name: string): JsxUsage[] {
  return nodes(markdownTree(source), (n) => (n.type === 'mdxJsxFlowElement' || n.type === 'mdxJsxTextElement') && n.name === name).map((n) => ({
    name,
    attributes: Object.fromEntries(
      (n.attributes ?? []).flatMap((a) => (a.type === 'mdxJsxAttribute' && a.name && typeof a.value === 'string' ? [[a.name, a.value]] : [])),
    ),
    line: n.position!.start.line,
  }));
}

/** Names written as inline code in a table cell: "`a`, `b`" → ["a", "b"]. */
export function inlineCodes(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}
