/**
 * Remark plugin: expands API placeholders in MDX pages at build time, so pages ship plain
 * Markdown tables and code blocks (no client JavaScript, good for search indexing).
 *
 *   <ApiFields api="v1" schema="P1MeterData" />               field table of a schema
 *   <ApiFields api="v1" schema="P1MeterData" fields="a, b" /> only these fields, in this order
 *   <ApiExample api="v1" name="DataP1Meter" />                 a named example as a code block
 *   <ApiExample api="v1" name="DataP1Meter" title="Response" /> …with a code block title
 *   <ApiDownload api="v1" />                                   link to the published description
 *
 * An unknown API, schema, field or example fails the build with one clear message.
 * Every table (generated or hand-written) also gets tabindex="0", see focusable().
 */
import {ApiToolingError, API_DOCUMENTS, fieldRows, getExample} from '../api/tooling/documents';

type Attr = {type: string; name?: string; value?: unknown};
type Node = {
  type: string;
  name?: string | null;
  attributes?: Attr[];
  children?: Node[];
  value?: string;
  lang?: string | null;
  meta?: string | null;
  url?: string;
  align?: (string | null)[];
  position?: {start?: {line?: number}};
  data?: {hProperties?: Record<string, unknown>};
};
type VFileLike = {path?: string; history?: string[]};

const NAMES = new Set(['ApiFields', 'ApiExample', 'ApiDownload']);

function attributes(node: Node): Record<string, string> {
  const out: Record<string, string> = {};
  for (const attr of node.attributes ?? []) {
    if (attr.type !== 'mdxJsxAttribute' || !attr.name) continue;
    if (typeof attr.value !== 'string') {
      throw new ApiToolingError(`<${node.name}> attribute "${attr.name}" must be a plain string`);
    }
    out[attr.name] = attr.value;
  }
  return out;
}

function need(attrs: Record<string, string>, key: string, tag: string): string {
  const value = attrs[key];
  if (!value) throw new ApiToolingError(`<${tag}> needs a "${key}" attribute`);
  return value;
}

/** Text with `inline code` spans turned into nodes. */
function inline(text: string): Node[] {
  return text
    .split(/(`[^`]+`)/)
    .filter((part) => part !== '')
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1
        ? {type: 'inlineCode', value: part.slice(1, -1)}
        : {type: 'text', value: part},
    );
}

function cell(children: Node[]): Node {
  return {type: 'tableCell', children};
}

function fieldsTable(attrs: Record<string, string>): Node {
  const api = need(attrs, 'api', 'ApiFields');
  const schema = need(attrs, 'schema', 'ApiFields');
  const only = attrs.fields?.split(/[\s,]+/).filter(Boolean);
  const rows = fieldRows(api, schema, only);
  const header = ['Field', 'Type', 'Unit', 'Description', 'Allowed values'];
  return {
    type: 'table',
    align: header.map(() => null),
    children: [
      {type: 'tableRow', children: header.map((h) => cell([{type: 'text', value: h}]))},
      ...rows.map((row) => ({
        type: 'tableRow',
        children: [
          cell([{type: 'inlineCode', value: row.name}]),
          cell([{type: 'text', value: row.type + (row.required ? ' (always present)' : '')}]),
          cell([{type: 'text', value: row.unit}]),
          cell(inline(row.description)),
          cell(inline(row.allowed)),
        ],
      })),
    ],
  };
}

function exampleBlock(attrs: Record<string, string>): Node {
  const api = need(attrs, 'api', 'ApiExample');
  const name = need(attrs, 'name', 'ApiExample');
  const example = getExample(api, name);
  const isText = typeof example.value === 'string';
  const meta = attrs.title ? `title="${attrs.title.replace(/"/g, "'")}"` : null;
  return {
    type: 'code',
    lang: isText ? 'text' : 'json',
    meta,
    value: isText ? (example.value as string) : JSON.stringify(example.value, null, 2),
  };
}

/** Where a registered description is published in the built site. */
export function publishedPath(api: string): string {
  const file = API_DOCUMENTS[api];
  if (!file) throw new ApiToolingError(`unknown API "${api}"; known APIs: ${Object.keys(API_DOCUMENTS).join(', ')}`);
  return `/api/${file}`;
}

function downloadLink(attrs: Record<string, string>): Node {
  const api = need(attrs, 'api', 'ApiDownload');
  const url = publishedPath(api);
  // Without a label the link shows the file name, in code font; a label is plain words.
  const child: Node = attrs.label ? {type: 'text', value: attrs.label} : {type: 'inlineCode', value: url.slice('/api/'.length)};
  // pathname:// keeps Docusaurus from treating the file as a page route.
  return {type: 'link', url: `pathname://${url}`, children: [child]};
}

function expand(node: Node): Node {
  const attrs = attributes(node);
  if (node.name === 'ApiFields') return fieldsTable(attrs);
  if (node.name === 'ApiExample') return exampleBlock(attrs);
  const link = downloadLink(attrs);
  return node.type === 'mdxJsxFlowElement' ? {type: 'paragraph', children: [link]} : link;
}

/**
 * Wide tables scroll sideways on small screens; a scrollable region must be reachable with the
 * keyboard (axe: scrollable-region-focusable), so every table gets tabindex="0".
 */
function focusable(table: Node): Node {
  table.data = {...table.data, hProperties: {...table.data?.hProperties, tabIndex: 0}};
  return table;
}

function walk(node: Node, file: VFileLike): void {
  if (node.type === 'table') focusable(node);
  const children = node.children;
  if (!children) return;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    const isJsx = child.type === 'mdxJsxFlowElement' || child.type === 'mdxJsxTextElement';
    if (isJsx && child.name && NAMES.has(child.name)) {
      try {
        children[i] = expand(child);
        if (children[i]!.type === 'table') focusable(children[i]!);
      } catch (error) {
        const where = `${file.path ?? file.history?.[0] ?? 'page'}:${child.position?.start?.line ?? '?'}`;
        throw new ApiToolingError(`${where}: ${(error as Error).message}`);
      }
    } else {
      walk(child, file);
    }
  }
}

export default function remarkApi() {
  return (tree: unknown, file: VFileLike): void => walk(tree as Node, file);
}
