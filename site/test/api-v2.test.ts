import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import ts from 'typescript';
import {loadApi, operations} from '../api/tooling/documents';
import {codeBlocks, docPages, type DocPage} from '../api/tooling/markdown';
import {
  errorCodes,
  errorPageProblems,
  missingRequests,
  outlineProblems,
  requestHygieneProblems,
  unknownErrorCodes,
} from '../api/v2.checks';

const pages = docPages();
const v2Pages = pages.filter((p) => p.id.startsWith('v2/'));
const page = (id: string) => v2Pages.find((p) => p.id === id)!;
const fence = '```';
const fixture = (id: string, source: string): DocPage => ({id, file: `/site/docs/${id}.mdx`, source});

test('all eight v2 pages exist', () => {
  assert.deepEqual(v2Pages.map((p) => p.id).sort(), [
    'v2/authorization',
    'v2/batteries',
    'v2/device_information',
    'v2/error-handling',
    'v2/measurement',
    'v2/system',
    'v2/telegram',
    'v2/websocket',
  ]);
});

test('the v2 description covers the thirteen endpoints of API v2 (twelve HTTPS operations and the WebSocket)', () => {
  const ops = operations('v2').map((o) => `${o.method} ${o.path}`).sort();
  assert.deepEqual(ops, [
    'DELETE /api/user',
    'GET /api',
    'GET /api/batteries',
    'GET /api/measurement',
    'GET /api/system',
    'GET /api/telegram',
    'GET /api/user',
    'POST /api/user',
    'PUT /api/batteries',
    'PUT /api/system',
    'PUT /api/system/identify',
    'PUT /api/system/reboot',
  ]);
});

test('every v2 endpoint has a copyable http request and a curl command', () => {
  assert.deepEqual(missingRequests(pages), []);
});

test('v2 requests send the bearer token and curl handles the certificate', () => {
  const {problems, checked} = requestHygieneProblems(pages);
  assert.deepEqual(problems, []);
  assert.ok(checked >= 40, `only ${checked} requests checked`);
});

test('v2 pages keep a clean h2/h3 outline', () => {
  assert.deepEqual(outlineProblems(pages), []);
});

test('every error code has its own heading and the documented status on the error-handling page', () => {
  assert.equal(errorCodes().length, 19);
  assert.deepEqual(errorPageProblems(page('v2/error-handling')), []);
});

test('every error code quoted on the v2 pages is a documented one', () => {
  assert.deepEqual(unknownErrorCodes(pages), []);
});

test('the authorization and websocket pages have a Mermaid sequence diagram and a code example', () => {
  for (const id of ['v2/authorization', 'v2/websocket']) {
    const blocks = codeBlocks(page(id).source);
    assert.ok(blocks.some((b) => b.lang === 'mermaid' && /^\s*sequenceDiagram/.test(b.value)), `${id} has no sequence diagram`);
    assert.ok(blocks.some((b) => b.lang === 'ts' || b.lang === 'python'), `${id} has no TypeScript or Python example`);
  }
});

test('every TypeScript example on the v2 pages is free of syntax errors', () => {
  let checked = 0;
  for (const p of v2Pages) {
    for (const block of codeBlocks(p.source).filter((b) => b.lang === 'ts')) {
      const out = ts.transpileModule(block.value, {reportDiagnostics: true, compilerOptions: {module: ts.ModuleKind.ESNext}});
      const errors = (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      assert.deepEqual(errors, [], `docs/${p.id}:${block.line}`);
      checked++;
    }
  }
  assert.ok(checked >= 2, `only ${checked} TypeScript examples`);
});

test('every Python example on the v2 pages compiles', (t) => {
  const probe = spawnSync('python3', ['--version']);
  if (probe.status !== 0) return t.skip('python3 is not installed');
  let checked = 0;
  for (const p of v2Pages) {
    for (const block of codeBlocks(p.source).filter((b) => b.lang === 'python')) {
      const run = spawnSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], {input: block.value});
      assert.equal(run.status, 0, `docs/${p.id}:${block.line}: ${run.stderr.toString()}`);
      checked++;
    }
  }
  assert.ok(checked >= 1);
});

test('the contradictions in the facts are flagged on the pages', () => {
  const caution = (id: string, pattern: RegExp) =>
    assert.match(page(id).source, pattern, `${id} does not flag ${pattern}`);
  caution('v2/batteries', /:::caution\[How many modes are there\?\]/);
  caution('v2/batteries', /:::caution\[Open points around charging to full\]/);
  caution('v2/websocket', /:::caution\[Where exactly is the error code\?\]/);
  caution('v2/measurement', /:::caution\[voltage_v or voltage_l1_v\?\]/);
  caution('v2/system', /:::caution\[Sources disagree for the kWh Meter and the battery\]/);
});

test('the description lists each documented HTTP status of an error code', () => {
  const byCode = new Map(errorCodes().map((c) => [c.code, c.status]));
  assert.equal(byCode.get('user:unauthorized'), 401);
  assert.equal(byCode.get('user:creation-not-enabled'), 403);
  assert.equal(byCode.get('request:api-version-not-supported'), 400);
  assert.equal(byCode.get('json:parameter-invalid-type:<parameter>'), 400);
  assert.equal(byCode.get('telegram:no-telegram-received'), 503);
  assert.equal([...byCode.values()].filter(Boolean).length, 5);
  assert.ok(loadApi('v2').paths?.['/api/telegram']);
});

test('fixture: a missing heading, a wrong status and an unknown code are reported', () => {
  const codes = [
    {code: 'user:unauthorized', meaning: 'x', status: 401},
    {code: 'user:not-found', meaning: 'x'},
    {code: 'request:unknown-type', meaning: 'x', transport: 'websocket'},
  ];
  const source = [
    '## Overview',
    '| Error code | HTTP status | Meaning |',
    '|---|---|---|',
    '| `user:unauthorized` | 403 | x |',
    '| `user:not-found` | not documented | x |',
    '| `request:unknown-type` | WebSocket only | x |',
    '| `user:made-up` | 500 | x |',
    '## Codes',
    '### user:unauthorized',
    '### request:unknown-type',
    '### user:also-made-up',
  ].join('\n');
  assert.deepEqual(errorPageProblems(fixture('v2/error-handling', source), codes), [
    'docs/v2/error-handling.mdx no h3 heading for user:not-found',
    'docs/v2/error-handling.mdx heading user:also-made-up is not in x-error-codes',
    'docs/v2/error-handling.mdx overview gives user:unauthorized status "403", description says "401"',
    'docs/v2/error-handling.mdx overview lists user:made-up, not in x-error-codes',
  ]);
});

test('fixture: a request without token or with an unpinned --insecure is reported', () => {
  const source = [
    `${fence}http`, 'GET /api/system HTTP/1.1', 'Host: 192.0.2.10', fence,
    `${fence}bash`, 'curl -k -H "Authorization: Bearer $HW_TOKEN" "https://$HW_IP/api/system"', fence,
    `${fence}bash`, 'curl --insecure --pinnedpubkey "$HW_PIN" "https://$HW_IP/api/measurement"', fence,
    `${fence}bash`, 'curl "https://$HW_IP/api/measurement" -H "Authorization: Bearer $HW_TOKEN"', fence,
    `${fence}bash`, 'curl --insecure --pinnedpubkey "$HW_PIN" -X POST "https://$HW_IP/api/user" -H "Content-Type: application/json" -d \'{"name": "local/a"}\'', fence,
  ].join('\n');
  const {problems, checked} = requestHygieneProblems([fixture('v2/fixture', source)]);
  assert.equal(checked, 5);
  assert.deepEqual(problems, [
    'docs/v2/fixture.mdx:1 GET /api/system needs an "Authorization: Bearer <32 hex>" header',
    'docs/v2/fixture.mdx:5 curl uses --insecure without --pinnedpubkey',
    'docs/v2/fixture.mdx:8 curl GET /api/measurement sends no "Authorization: Bearer" header',
    'docs/v2/fixture.mdx:11 curl does not say how it checks the certificate',
  ]);
});

test('fixture: headings deeper than h3, an h1 and an h3 before any h2 are reported', () => {
  const source = ['---', 'title: X', '---', '### Early', '# Title again', '## Fine', '#### Too deep', fence, '# not a heading', fence].join('\n');
  assert.deepEqual(outlineProblems([fixture('v2/fixture', source)]), [
    'docs/v2/fixture.mdx:4 h3 "Early" comes before any h2',
    'docs/v2/fixture.mdx:5 h1 "Title again" in the body; the page title is the h1',
    'docs/v2/fixture.mdx:7 h4 "Too deep" is deeper than the table of contents shows',
  ]);
});

test('fixture: an endpoint without a copyable request and a made-up error code are reported', () => {
  const withoutReboot = v2Pages.map((p) => ({...p, source: p.source.replace(/\/api\/system\/reboot/g, '/api/system/rebooot')}));
  assert.deepEqual(missingRequests(withoutReboot), [
    'PUT /api/system/reboot has no ```http request on the v2 pages',
    'PUT /api/system/reboot has no curl command on the v2 pages',
  ]);
  const made = fixture('v2/fixture', ['`user:forbidden`', '{"error": "json:parameter-missing:name"}', '`json:parameter-invalid-type:<parameter>`'].join('\n'));
  assert.deepEqual(unknownErrorCodes([made]), ['docs/v2/fixture.mdx:1 unknown error code user:forbidden']);
});
