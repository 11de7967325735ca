import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import ts from 'typescript';
import {loadApi, operations} from '../api/tooling/documents';
import {codeBlocks, docPages, withoutCode, type DocPage} from '../api/tooling/markdown';
import {
  errorCodes,
  errorPageProblems,
  headings,
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

/** Search queries (shared/search-eval/queries.json) that must land on a v2 page. */
const V2_QUERIES: [string, string][] = [
  ['token', 'v2/authorization'],
  ['button press', 'v2/authorization'],
  ['user:unauthorized', 'v2/authorization'],
  ['user:unauthorized', 'v2/error-handling'],
  ['active power', 'v2/measurement'],
  ['voltage', 'v2/measurement'],
  ['gas', 'v2/measurement'],
  ['subscribe', 'v2/websocket'],
  ['reboot', 'v2/system'],
  ['identify', 'v2/system'],
  ['cloud_enabled', 'v2/system'],
  ['raw telegram', 'v2/telegram'],
  ['battery mode', 'v2/batteries'],
  ['serial number', 'v2/device_information'],
  ['firmware version', 'v2/device_information'],
  ['api_version', 'v2/device_information'],
];

test('each search query of part 2 appears in a heading of its page and in its text', () => {
  for (const [query, id] of V2_QUERIES) {
    const source = page(id).source;
    const inHeading = headings(source).some((h) => h.text.replace(/`/g, '').toLowerCase().includes(query));
    const inText = source.toLowerCase().includes(query);
    assert.ok(inText, `"${query}" is not in the text of ${id}`);
    // user:unauthorized is a heading on the error page; on the authorization page it is in the text.
    if (!(query === 'user:unauthorized' && id === 'v2/authorization')) assert.ok(inHeading, `"${query}" is not in a heading of ${id}`);
  }
});

/** Snake-case names in v2 prose that are not fields of a description, with the reason. */
const NOT_V2_FIELDS: Record<string, string> = {
  montly_power_peak_w: 'the API v1 spelling, for comparison',
  zero_charge_only: 'a notion of the Python library, named to say it is not an API value',
  zero_discharge_only: 'a notion of the Python library, named to say it is not an API value',
  hostname_checks_common_name: 'a Python ssl setting in the certificate advice',
  server_hostname: 'a Python ssl argument in the certificate advice',
  authentication_requested: 'the older name of authorization_requested, named to accept it',
};

/** String values a description allows (`enum`, `const`, `examples`): mode names, meter types, message types. */
function allowedValues(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => allowedValues(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'enum' || k === 'examples') (Array.isArray(v) ? v : []).forEach((x) => typeof x === 'string' && out.add(x));
      else if (k === 'const' && typeof v === 'string') out.add(v);
      else allowedValues(v, out);
    }
  }
  return out;
}

test('every field name or value written in the prose of a v2 page exists in an API description', async () => {
  const {allFieldNames} = await import('../api/tooling/pages');
  const known = new Set([...['v1', 'v2'].flatMap((api) => [...allFieldNames(api)]), ...allowedValues(loadApi('v2').components)]);
  const unknown: string[] = [];
  for (const p of v2Pages) {
    const prose = withoutCode(p.source).replace(/<Api\w+[^>]*\/>/g, '');
    for (const m of prose.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)) {
      if (!known.has(m[1]!) && !(m[1]! in NOT_V2_FIELDS)) unknown.push(`${p.id}: ${m[1]}`);
    }
  }
  assert.deepEqual(unknown, []);
});
