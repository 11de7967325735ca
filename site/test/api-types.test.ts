/**
 * What an integrator does with the published descriptions: generate TypeScript types with
 * openapi-typescript (linted with Redocly's recommended rules, as configured in api/redocly.yaml)
 * and compile code against them with `strict` on. Every example we publish, in the descriptions
 * and on the pages, becomes a typed constant; one deliberately wrong constant proves the check bites.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {parse} from 'yaml';
import ts from 'typescript';
import {API_DIR, apiFile, findOperation, loadApi, type JsonSchema} from '../api/tooling/documents';
import {codeBlocks, docPages} from '../api/tooling/markdown';
import {pageRequests} from '../api/tooling/pages';
import {payloadSchema, wsDocument} from '../api/websocket.checks';

const TYPED_APIS = ['v1', 'v2'] as const;

/** The Redocly configuration openapi-typescript lints with: api/redocly.yaml, root rules plus the API's own. */
function redoclyConfigFor(api: string): {extends: string[]; rules: Record<string, unknown>} {
  const config = parse(readFileSync(path.join(API_DIR, 'redocly.yaml'), 'utf8')) as {
    extends: string[];
    rules?: Record<string, unknown>;
    apis?: Record<string, {rules?: Record<string, unknown>}>;
  };
  return {extends: config.extends, rules: {...config.rules, ...config.apis?.[api]?.rules}};
}

type Constant = {where: string; type: string; value: unknown};

const schemaType = (api: string, name: string) => `${api}.components['schemas']['${name}']`;

function descriptionConstants(): Constant[] {
  const out: Constant[] = [];
  for (const api of TYPED_APIS) {
    const doc = loadApi(api);
    for (const [name, example] of Object.entries(doc.components?.examples ?? {})) {
      if (example['x-schema']) out.push({where: `${api} example ${name}`, type: schemaType(api, example['x-schema']), value: example.value});
    }
    // `examples` arrays on schemas and on their properties.
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      for (const value of (schema.examples as unknown[] | undefined) ?? []) {
        out.push({where: `${api} schema ${name} examples`, type: schemaType(api, name), value});
      }
      for (const [field, prop] of Object.entries(schema.properties ?? {})) {
        for (const value of ((prop as JsonSchema).examples as unknown[] | undefined) ?? []) {
          out.push({where: `${api} schema ${name}.${field} examples`, type: `NonNullable<${schemaType(api, name)}['${field}']>`, value});
        }
      }
    }
  }
  for (const [name, message] of Object.entries(wsDocument().components?.messages ?? {})) {
    const schema = payloadSchema(message as never);
    for (const example of (message as {examples?: {name?: string; payload: unknown}[]}).examples ?? []) {
      if (schema) out.push({where: `v2-ws message ${name} example ${example.name ?? '?'}`, type: schemaType('v2', schema), value: example.payload});
    }
  }
  return out;
}

function pageConstants(): Constant[] {
  const pages = docPages();
  const out: Constant[] = [];
  for (const page of pages) {
    for (const block of codeBlocks(page.source)) {
      const m = block.lang === 'json' ? /^(v1|v2):(\w+)(\[\])?$/.exec(block.meta.schema ?? '') : null;
      if (!m) continue;
      out.push({where: `docs/${page.id}:${block.line}`, type: `${schemaType(m[1]!, m[2]!)}${m[3] ?? ''}`, value: JSON.parse(block.value)});
    }
  }
  for (const {where, req, api, invalid} of pageRequests(pages)) {
    if (!api || invalid || !req.body?.trim() || !(TYPED_APIS as readonly string[]).includes(api)) continue;
    const operationId = findOperation(api, req.method, req.path)?.operation.operationId as string | undefined;
    if (!operationId) continue; // reported by content-examples.test.ts
    out.push({where, type: `NonNullable<${api}.operations['${operationId}']['requestBody']>['content']['application/json']`, value: JSON.parse(req.body)});
  }
  return out;
}

function pageSnippets(): {where: string; code: string}[] {
  return docPages().flatMap((page) =>
    codeBlocks(page.source)
      .filter((b) => (b.lang === 'ts' || b.lang === 'typescript') && /from '\.\/homewizard-v[12]'/.test(b.value))
      .map((b) => ({where: `docs/${page.id}:${b.line}`, code: b.value.replace(/from '\.\/homewizard-(v[12])'/g, "from './$1'")})),
  );
}

test('openapi-typescript generates types from the published descriptions, and every example compiles against them under tsc --strict', async () => {
  const {default: openapiTS, astToString} = await import('openapi-typescript');
  const {createConfig} = await import('@redocly/openapi-core');
  const dir = mkdtempSync(path.join(tmpdir(), 'api-types-'));
  try {
    for (const api of TYPED_APIS) {
      const redocly = await createConfig(redoclyConfigFor(api) as never);
      const ast = await openapiTS(pathToFileURL(apiFile(api)), {redocly, silent: true});
      writeFileSync(path.join(dir, `${api}.ts`), astToString(ast));
    }
    const constants = [...descriptionConstants(), ...pageConstants()];
    assert.ok(constants.length >= 150, `only ${constants.length} examples found`);
    const header = TYPED_APIS.map((api) => `import type * as ${api} from './${api}';`).join('\n');
    const lines = constants.map((c, i) => `export const c${i}: ${c.type} = ${JSON.stringify(c.value)};`);
    writeFileSync(path.join(dir, 'examples.ts'), `${header}\n${lines.join('\n')}\n`);
    // The check must be able to fail: a typo in a field name and a value of the wrong type.
    writeFileSync(
      path.join(dir, 'wrong.ts'),
      `${header}\nexport const a: ${schemaType('v1', 'SystemSettings')} = {"cloud_enable": true};\n` +
        `export const b: ${schemaType('v2', 'SystemUpdate')} = {"status_led_brightness_pct": "50"};\n`,
    );
    // TypeScript blocks on the pages that use the generated types (imported as './homewizard-v1' or
    // './homewizard-v2', the names the Getting started page generates) compile too.
    const snippets = pageSnippets();
    assert.ok(snippets.length >= 1, 'no page shows code that uses the generated types');
    snippets.forEach((snippet, i) => writeFileSync(path.join(dir, `snippet${i}.ts`), snippet.code));
    const roots = ['examples.ts', 'wrong.ts', ...snippets.map((_, i) => `snippet${i}.ts`)].map((f) => path.join(dir, f));
    const program = ts.createProgram(roots, {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const file = d.file ? path.basename(d.file.fileName) : '?';
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      // examples.ts holds one import line per API, then one constant per line.
      const snippet = /^snippet(\d+)\.ts$/.exec(file);
      const label = file === 'examples.ts'
        ? constants[line - TYPED_APIS.length]?.where
        : snippet ? `${snippets[Number(snippet[1])]!.where} (line ${line + 1})` : `${file}:${line + 1}`;
      return `${label}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
    assert.deepEqual(problems.filter((p) => !p.startsWith('wrong.ts')), []);
    assert.equal(problems.filter((p) => p.startsWith('wrong.ts:3') && /cloud_enable/.test(p)).length, 1, problems.join('\n'));
    assert.equal(problems.filter((p) => p.startsWith('wrong.ts:4') && /string.*number/.test(p)).length, 1, problems.join('\n'));
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
