/**
 * Loading the API descriptions in site/api and reading facts out of them. Used at build time by
 * the remark plugin (site/plugins/remark-api.ts), by the publish plugin and by the tests.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {parse} from 'yaml';

/** Folder holding the API descriptions. */
export const API_DIR = path.resolve(__dirname, '..');

/**
 * The registered API descriptions: id (used in `api="…"` attributes and `schema="id:Name"` code
 * block metadata) → file name in site/api. Part 2 adds `v2: 'v2.openapi.yaml'` here.
 * Every file listed here is validated by test/api-openapi.test.ts and published under /api/.
 */
export const API_DOCUMENTS: Record<string, string> = {
  v1: 'v1.openapi.yaml',
  v2: 'v2.openapi.yaml',
  'v2-ws': 'websocket.asyncapi.yaml',
};

/** A problem in a page or an API description, reported as one clear line. */
export class ApiToolingError extends Error {
  override name = 'ApiToolingError';
}

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  'x-unit'?: string;
  [key: string]: unknown;
};

export type ApiExample = {summary?: string; value: unknown; 'x-schema'?: string; $ref?: string};

export type ApiDocument = {
  openapi?: string;
  asyncapi?: string;
  info: {title: string; version: string};
  paths?: Record<string, Record<string, unknown>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    examples?: Record<string, ApiExample>;
    [key: string]: unknown;
  };
};

const cache = new Map<string, ApiDocument>();

export function apiIds(): string[] {
  return Object.keys(API_DOCUMENTS);
}

export function apiFile(id: string): string {
  const file = API_DOCUMENTS[id];
  if (!file) {
    throw new ApiToolingError(`unknown API "${id}"; known APIs: ${apiIds().join(', ')}`);
  }
  return path.join(API_DIR, file);
}

export function loadApi(id: string): ApiDocument {
  const hit = cache.get(id);
  if (hit) return hit;
  const doc = parse(readFileSync(apiFile(id), 'utf8')) as ApiDocument;
  cache.set(id, doc);
  return doc;
}

/** Follows a local `#/a/b/c` reference inside one document. */
export function resolveRef<T = unknown>(doc: ApiDocument, ref: string): T {
  if (!ref.startsWith('#/')) throw new ApiToolingError(`only local references are supported: ${ref}`);
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    if (node === undefined) throw new ApiToolingError(`reference ${ref} does not resolve`);
  }
  return node as T;
}

export function deref<T extends {$ref?: string}>(doc: ApiDocument, node: T): T {
  let current = node;
  for (let i = 0; current.$ref && i < 20; i++) current = resolveRef<T>(doc, current.$ref);
  return current;
}

/**
 * Follows `$ref`s and a lone `allOf: [{$ref}]`, the form a property takes when it adds its own
 * description to a referenced schema (JSON Schema draft-07 tools ignore siblings of `$ref`).
 */
function schemaOf(doc: ApiDocument, node: JsonSchema): JsonSchema {
  let current = deref(doc, node);
  for (let i = 0; i < 20; i++) {
    const parts = current.allOf as JsonSchema[] | undefined;
    if (!parts || parts.length !== 1 || current.type || current.properties) break;
    current = deref(doc, parts[0]!);
  }
  return current;
}

/** `anyOf` of a closed enum and its open base type: the known values of an open set. */
function openSet(doc: ApiDocument, schema: JsonSchema): {known: unknown[]; type: string} | undefined {
  const parts = (schema.anyOf ?? []).map((p) => schemaOf(doc, p));
  const closed = parts.filter((p) => p.enum);
  const open = parts.filter((p) => !p.enum && typeof p.type === 'string' && Object.keys(p).every((k) => k === 'type' || k === 'description'));
  if (closed.length !== 1 || open.length !== 1 || parts.length !== 2) return undefined;
  return {known: closed[0]!.enum!, type: open[0]!.type as string};
}

export function getSchema(api: string, name: string): JsonSchema {
  const schema = loadApi(api).components?.schemas?.[name];
  if (!schema) throw new ApiToolingError(`API "${api}" has no schema "${name}"`);
  return schema;
}

export function getExample(api: string, name: string): ApiExample {
  const example = loadApi(api).components?.examples?.[name];
  if (!example) throw new ApiToolingError(`API "${api}" has no example "${name}"`);
  return example;
}

/** One row of a field table, already in words. */
export type FieldRow = {
  name: string;
  type: string;
  unit: string;
  description: string;
  allowed: string;
  required: boolean;
};

function typeWords(doc: ApiDocument, raw: JsonSchema): string {
  const schema = schemaOf(doc, raw);
  if (schema.anyOf && !schema.type) {
    return [...new Set(schema.anyOf.map((p) => typeWords(doc, p)))].join(' or ');
  }
  const types = (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []).filter(
    (t) => t !== 'null',
  );
  if (types.length === 0 && schema.properties) return 'object';
  if (types.includes('array') && schema.items) {
    const item = schemaOf(doc, schema.items);
    return `array of ${item.properties ? 'objects' : typeWords(doc, item) + 's'}`;
  }
  return types.join(' or ') || 'any';
}

function code(value: unknown): string {
  return '`' + (typeof value === 'string' ? value : JSON.stringify(value)) + '`';
}

function allowedWords(doc: ApiDocument, raw: JsonSchema): string {
  if (typeof raw['x-allowed'] === 'string') return raw['x-allowed'];
  const schema = schemaOf(doc, raw);
  // A readable override where the machine form (a long pattern, say) would be hard to read.
  if (typeof schema['x-allowed'] === 'string') return schema['x-allowed'];
  const set = openSet(doc, schema);
  if (set) return `${set.known.map(code).join(', ')}, or another ${set.type} (open set)`;
  if (schema.items && (Array.isArray(schema.type) ? schema.type : [schema.type]).includes('array')) {
    const items = allowedWords(doc, schema.items);
    return items === '–' ? '–' : `items: ${items}`;
  }
  if (schema.const !== undefined) return code(schema.const);
  if (schema.enum) return schema.enum.map(code).join(', ');
  if (schema.minimum !== undefined && schema.maximum !== undefined) return `${schema.minimum} to ${schema.maximum}`;
  if (schema.minimum !== undefined) return `at least ${schema.minimum}`;
  if (schema.maximum !== undefined) return `at most ${schema.maximum}`;
  if (schema.pattern) return `pattern ${code(schema.pattern)}`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('boolean')) return '`true`, `false`';
  return '–';
}

/** The properties of an object schema (following `$ref`), in document order. */
export function schemaProperties(api: string, name: string): Record<string, JsonSchema> {
  const doc = loadApi(api);
  const schema = deref(doc, getSchema(api, name));
  if (!schema.properties) throw new ApiToolingError(`schema "${name}" of API "${api}" has no properties`);
  return schema.properties;
}

/** Rows for a field table of one schema; `only` limits and orders the rows. */
export function fieldRows(api: string, name: string, only?: string[]): FieldRow[] {
  const doc = loadApi(api);
  const schema = deref(doc, getSchema(api, name));
  const props = schemaProperties(api, name);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = only ?? Object.keys(props);
  return names.map((field) => {
    const prop = props[field];
    if (!prop) throw new ApiToolingError(`schema "${name}" of API "${api}" has no field "${field}"`);
    const resolved = schemaOf(doc, prop);
    return {
      name: field,
      type: typeWords(doc, prop),
      unit: resolved['x-unit'] ?? '–',
      description: (prop.description ?? resolved.description ?? '').trim(),
      allowed: allowedWords(doc, prop),
      required: required.has(field),
    };
  });
}

export type Operation = {api: string; method: string; path: string; operation: Record<string, unknown>};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export function operations(api: string): Operation[] {
  const doc = loadApi(api);
  return Object.entries(doc.paths ?? {}).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([m, op]) => ({api, method: m.toUpperCase(), path: p, operation: op as Record<string, unknown>})),
  );
}

export function findOperation(api: string, method: string, urlPath: string): Operation | undefined {
  const clean = urlPath.split(/[?#]/)[0]!.replace(/\/+$/, '') || '/';
  return operations(api).find((o) => o.method === method.toUpperCase() && o.path === clean);
}

/** The JSON schema of an operation's request body, if it takes one. */
export function requestSchema(op: Operation): JsonSchema | undefined {
  const doc = loadApi(op.api);
  const body = op.operation.requestBody as {$ref?: string; content?: Record<string, {schema?: JsonSchema}>} | undefined;
  if (!body) return undefined;
  const content = deref(doc, body).content ?? {};
  return content['application/json']?.schema;
}
