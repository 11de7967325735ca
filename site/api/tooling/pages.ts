/**
 * Checks that tie the pages in site/docs to the API descriptions. Each function returns a list of
 * problems ("file:line message"); the tests assert the lists are empty.
 */
import path from 'node:path';
import {API_DOCUMENTS, findOperation, loadApi, requestSchema, schemaProperties, fieldRows, getExample} from './documents';
import {codeBlocks, inlineCodes, jsxUsages, tables, type DocPage} from './markdown';
import {curlRequests, parseHttp, type PageRequest} from './requests';
import {inlineCheck, schemaCheck} from './validate';

const rel = (page: DocPage) => `docs/${page.id}${path.extname(page.file)}`;

/** The API a page belongs to: `v1/state` → v1, `v2/system` → v2, general pages → none. */
export function pageApi(page: DocPage): string | undefined {
  return page.id.includes('/') ? page.id.split('/')[0] : undefined;
}

/** Every ```json block must name its schema (`schema="v1:Name"`, `[]` suffix for arrays), parse and match. */
export function jsonBlockProblems(pages: DocPage[]): {problems: string[]; checked: number} {
  const problems: string[] = [];
  let checked = 0;
  for (const page of pages) {
    for (const block of codeBlocks(page.source)) {
      if (block.lang !== 'json') continue;
      const where = `${rel(page)}:${block.line}`;
      let value: unknown;
      try {
        value = JSON.parse(block.value);
      } catch (error) {
        problems.push(`${where} json block does not parse: ${(error as Error).message}`);
        continue;
      }
      const ref = block.meta.schema;
      if (!ref) {
        problems.push(`${where} json block has no schema="api:Name" in its meta line`);
        continue;
      }
      const m = /^([\w-]+):(\w+)(\[\])?$/.exec(ref);
      if (!m) {
        problems.push(`${where} schema="${ref}" is not of the form api:Name or api:Name[]`);
        continue;
      }
      const [, api, name, many] = m as unknown as [string, string, string, string | undefined];
      if (!(api in API_DOCUMENTS)) {
        problems.push(`${where} schema="${ref}" names an API that is not registered in api/tooling/documents.ts`);
        continue;
      }
      try {
        const check = schemaCheck(api, name);
        const values = many ? (Array.isArray(value) ? value : [Symbol('not an array')]) : [value];
        for (const v of values) {
          const found = typeof v === 'symbol' ? ['(root) should be an array'] : check(v);
          if (found.length) problems.push(`${where} does not match ${ref}: ${found.join('; ')}`);
        }
        checked++;
      } catch (error) {
        problems.push(`${where} ${(error as Error).message}`);
      }
    }
  }
  return {problems, checked};
}

function checkRequest(api: string, req: PageRequest, where: string, expectInvalidBody: boolean): string[] {
  const op = findOperation(api, req.method, req.path);
  if (!op) return [`${where} ${req.method} ${req.path} is not an operation of the ${api} description`];
  const schema = requestSchema(op);
  const body = req.body?.trim();
  if (!body) {
    const required = (op.operation.requestBody as {required?: boolean} | undefined)?.required;
    return required ? [`${where} ${req.method} ${req.path} needs a body`] : [];
  }
  if (!schema) return [`${where} ${req.method} ${req.path} takes no body`];
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return expectInvalidBody ? [] : [`${where} request body is not valid JSON`];
  }
  const found = inlineCheck(api, schema)(value);
  if (expectInvalidBody) return found.length ? [] : [`${where} body is marked invalid but matches the schema`];
  return found.length ? [`${where} request body does not match: ${found.join('; ')}`] : [];
}

/** One copyable request on a page, with the API it belongs to (or the reason none could be told). */
export type PageRequestAt = {where: string; req: PageRequest; invalid: boolean; api?: string; problem?: string};

/**
 * The requests in ```http and ```bash (curl) blocks. The API comes from the `api="v1"` meta, else
 * the page folder, else the scheme (http → v1, https → v2). Meta `body="invalid"` marks a request
 * whose body is wrong on purpose. `/api/ws` is left out: the WebSocket is not an HTTP operation.
 */
export function pageRequests(pages: DocPage[]): PageRequestAt[] {
  const out: PageRequestAt[] = [];
  for (const page of pages) {
    for (const block of codeBlocks(page.source)) {
      if (block.lang !== 'http' && block.lang !== 'bash') continue;
      const where = `${rel(page)}:${block.line}`;
      const invalid = block.meta.body === 'invalid';
      const requests: PageRequest[] = [];
      if (block.lang === 'http') {
        const message = parseHttp(block.value);
        if (!message) {
          out.push({where, req: {method: '', url: '', path: ''}, invalid, problem: `${where} http block is neither a request nor a response`});
          continue;
        }
        if (message.kind === 'response') {
          if (/json/.test(message.headers['content-type'] ?? '') && message.body) {
            try {
              JSON.parse(message.body);
            } catch {
              out.push({where, req: {method: '', url: '', path: ''}, invalid, problem: `${where} response body is not valid JSON`});
            }
          }
          continue;
        }
        requests.push({method: message.method, path: message.path, url: message.path, body: message.body});
      } else {
        requests.push(...curlRequests(block.value));
      }
      for (const req of requests) {
        if (req.path === '/api/ws') continue;
        const api =
          block.meta.api ??
          pageApi(page) ??
          (req.path.startsWith('/api/v1') || req.scheme === 'http' ? 'v1' : req.scheme === 'https' ? 'v2' : undefined);
        out.push(
          api
            ? {where, req, invalid, api}
            : {where, req, invalid, problem: `${where} cannot tell which API this request is for; add api="v1" or api="v2" to the meta line`},
        );
      }
    }
  }
  return out;
}

/**
 * Every request on the pages must be an operation of its API and carry a matching body. Requests
 * for an API that is not registered yet are counted as skipped.
 */
export function requestBlockProblems(pages: DocPage[]): {problems: string[]; checked: number; skipped: number} {
  const problems: string[] = [];
  let checked = 0;
  let skipped = 0;
  for (const {where, req, invalid, api, problem} of pageRequests(pages)) {
    if (problem || !api) {
      problems.push(problem ?? `${where} has no API`);
      continue;
    }
    if (!(api in API_DOCUMENTS)) {
      skipped++;
      continue;
    }
    problems.push(...checkRequest(api, req, where, invalid));
    checked++;
  }
  return {problems, checked, skipped};
}

/** Placeholders must point at schemas, fields and examples that exist. */
export function placeholderProblems(pages: DocPage[]): string[] {
  const problems: string[] = [];
  for (const page of pages) {
    for (const use of [...jsxUsages(page.source, 'ApiFields'), ...jsxUsages(page.source, 'ApiExample'), ...jsxUsages(page.source, 'ApiDownload')]) {
      const where = `${rel(page)}:${use.line}`;
      const a = use.attributes;
      try {
        if (!a.api) throw new Error(`<${use.name}> needs an api attribute`);
        loadApi(a.api);
        if (use.name === 'ApiFields') fieldRows(a.api, a.schema ?? '', a.fields?.split(/[\s,]+/).filter(Boolean));
        if (use.name === 'ApiExample') getExample(a.api, a.name ?? '');
      } catch (error) {
        problems.push(`${where} ${(error as Error).message}`);
      }
    }
  }
  return problems;
}

/** Field names a page documents for an API: its <ApiFields> tables and its hand-written "Field" tables. */
export function documentedFields(pages: DocPage[], api: string): Map<string, Set<string>> {
  const bySchema = new Map<string, Set<string>>();
  const add = (schema: string, field: string) => {
    if (!bySchema.has(schema)) bySchema.set(schema, new Set());
    bySchema.get(schema)!.add(field);
  };
  for (const page of pages) {
    for (const use of jsxUsages(page.source, 'ApiFields')) {
      if (use.attributes.api !== api || !use.attributes.schema) continue;
      const only = use.attributes.fields?.split(/[\s,]+/).filter(Boolean);
      for (const field of only ?? Object.keys(schemaProperties(api, use.attributes.schema))) add(use.attributes.schema, field);
    }
    if (pageApi(page) !== api) continue;
    for (const table of tables(page.source)) {
      if (!/^field$/i.test(table.header[0] ?? '')) continue;
      for (const row of table.rows) for (const name of inlineCodes(row[0] ?? '')) add('*', name);
    }
  }
  return bySchema;
}

/** Every property of every object schema must be documented on some page of its API. */
export function undocumentedFields(pages: DocPage[], api: string): string[] {
  const documented = documentedFields(pages, api);
  const loose = documented.get('*') ?? new Set<string>();
  const missing: string[] = [];
  for (const [name, schema] of Object.entries(loadApi(api).components?.schemas ?? {})) {
    for (const field of Object.keys(schema.properties ?? {})) {
      if (!documented.get(name)?.has(field) && !loose.has(field)) missing.push(`${api}:${name}.${field}`);
    }
  }
  return missing;
}

/** All property names anywhere in an API description. */
export function allFieldNames(api: string): Set<string> {
  const names = new Set<string>();
  for (const schema of Object.values(loadApi(api).components?.schemas ?? {})) {
    for (const field of Object.keys(schema.properties ?? {})) names.add(field);
  }
  return names;
}

/**
 * Hand-written tables may not name fields the description lacks: on an API's pages, the first
 * column of a table headed "Field"; on any page, columns headed "v1 field" / "v2 field".
 */
export function unknownTableFields(pages: DocPage[]): {problems: string[]; checked: number} {
  const problems: string[] = [];
  let checked = 0;
  for (const page of pages) {
    for (const table of tables(page.source)) {
      const columns: [number, string][] = [];
      table.header.forEach((h, i) => {
        const m = /^(?:API\s+)?(v\d+)\s+field/i.exec(h);
        if (m) columns.push([i, m[1]!.toLowerCase()]);
      });
      const api = pageApi(page);
      if (api && /^field$/i.test(table.header[0] ?? '')) columns.push([0, api]);
      for (const [col, colApi] of columns) {
        if (!(colApi in API_DOCUMENTS)) continue;
        const known = allFieldNames(colApi);
        table.rows.forEach((row, r) => {
          for (const name of inlineCodes(row[col] ?? '')) {
            checked++;
            if (!known.has(name)) {
              problems.push(`${rel(page)}:${table.line + 2 + r} field \`${name}\` is not in the ${colApi} description`);
            }
          }
        });
      }
    }
  }
  return {problems, checked};
}
