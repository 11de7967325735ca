import {test} from 'node:test';
import {docPages} from '../api/tooling/markdown';
import assert from 'node:assert/strict';
import remarkApi from '../plugins/remark-api';

type N = {type: string; name?: string; attributes?: unknown[]; children?: N[]; value?: string; lang?: string; meta?: string | null; url?: string};

const jsx = (name: string, attrs: Record<string, string>, type = 'mdxJsxFlowElement'): N => ({
  type,
  name,
  attributes: Object.entries(attrs).map(([k, v]) => ({type: 'mdxJsxAttribute', name: k, value: v})),
  children: [],
});

function run(...children: N[]): N {
  const tree: N = {type: 'root', children};
  remarkApi()(tree, {path: 'docs/v1/page.mdx'});
  return tree;
}

const text = (n: N): string => n.value ?? (n.children ?? []).map(text).join('');

test('<ApiFields> becomes a Markdown table with one row per field, in the order asked for', () => {
  const tree = run(jsx('ApiFields', {api: 'v1', schema: 'EnergySocketState', fields: 'brightness, power_on'}));
  const table = tree.children![0]!;
  assert.equal(table.type, 'table');
  const rows = table.children!.map((row) => row.children!.map(text));
  assert.deepEqual(rows[0], ['Field', 'Type', 'Unit', 'Description', 'Allowed values']);
  assert.deepEqual(rows.slice(1).map((r) => [r[0], r[1], r[4]]), [
    ['brightness', 'number (always present)', '0 to 255'],
    ['power_on', 'boolean (always present)', 'true, false'],
  ]);
});

test('<ApiFields> shows units and enum values from the description', () => {
  const tree = run(jsx('ApiFields', {api: 'v1', schema: 'ExternalMeter'}), jsx('ApiFields', {api: 'v1', schema: 'P1MeterData', fields: 'montly_power_peak_w'}));
  const ext = tree.children![0]!.children!.map((row) => row.children!.map(text));
  assert.equal(ext.find((r) => r[0] === 'type')![4], 'gas_meter, heat_meter, warm_water_meter, water_meter, inlet_heat_meter, or another string (open set)');
  assert.equal(ext.find((r) => r[0] === 'timestamp')![2], 'YYMMDDhhmmss');
  const peak = tree.children![1]!.children![1]!.children!.map(text);
  assert.deepEqual(peak.slice(0, 3), ['montly_power_peak_w', 'number', 'W']);
});

test('<ApiExample> becomes a json code block holding the example value', () => {
  const tree = run(jsx('ApiExample', {api: 'v1', name: 'StateGet', title: 'Response'}));
  const block = tree.children![0]!;
  assert.equal(block.type, 'code');
  assert.equal(block.lang, 'json');
  assert.equal(block.meta, 'title="Response"');
  assert.deepEqual(JSON.parse(block.value!), {power_on: true, switch_lock: false, brightness: 255});
});

test('a plain-text example becomes a text block', () => {
  const block = run(jsx('ApiExample', {api: 'v1', name: 'TelegramP1Meter'})).children![0]!;
  assert.equal(block.lang, 'text');
  assert.match(block.value!, /^\/ISK5\\\\2M550T-10111-\n\n3:0\.2\.8\(50\)/);
  assert.match(block.value!, /!1F28$/);
});

test('<ApiDownload> links to the published description', () => {
  const para = run(jsx('ApiDownload', {api: 'v1'})).children![0]!;
  assert.equal(para.type, 'paragraph');
  assert.equal(para.children![0]!.url, 'pathname:///api/v1.openapi.yaml');
  assert.equal(text(para), 'v1.openapi.yaml');
  assert.equal(para.children![0]!.children![0]!.type, 'inlineCode');
  const labelled = run(jsx('ApiDownload', {api: 'v2-ws', label: 'Download the AsyncAPI description'})).children![0]!.children![0]!;
  assert.equal(labelled.url, 'pathname:///api/websocket.asyncapi.yaml');
  assert.deepEqual(labelled.children, [{type: 'text', value: 'Download the AsyncAPI description'}]);
});

test('every API page links the description it documents near the top', () => {
  for (const page of docPages().filter((p) => /^v[12]\//.test(p.id))) {
    const [api, label] = page.id === 'v2/websocket' ? ['v2-ws', 'Download the AsyncAPI description'] : [page.id.slice(0, 2), 'Download the OpenAPI description'];
    const body = page.source.replace(/^---\n[\s\S]*?\n---\n/, '');
    const at = body.indexOf(`<ApiDownload api="${api}" label="${label}" />`);
    assert.ok(at >= 0, `${page.id} has no "${label}" link`);
    assert.ok(!/^#/m.test(body.slice(0, at)), `${page.id}: the download link comes after the first heading`);
  }
});

test('placeholders nested in other elements are expanded too', () => {
  const tree = run({type: 'mdxJsxFlowElement', name: 'details', children: [jsx('ApiExample', {api: 'v1', name: 'IdentifyOk'})]});
  assert.equal(tree.children![0]!.children![0]!.type, 'code');
});

test('a wrong placeholder fails the build with the page and the reason', () => {
  assert.throws(
    () => run(jsx('ApiFields', {api: 'v1', schema: 'P1MeterData', fields: 'montly_power_peak'})),
    {name: 'ApiToolingError', message: 'docs/v1/page.mdx:?: schema "P1MeterData" of API "v1" has no field "montly_power_peak"'},
  );
  assert.throws(() => run(jsx('ApiExample', {api: 'v1'})), /<ApiExample> needs a "name" attribute/);
});

test('every table, generated or hand-written, becomes keyboard-focusable for horizontal scrolling', () => {
  const handWritten: N & {data?: {hProperties?: Record<string, unknown>}} = {type: 'table', children: []};
  const tree = run(handWritten, jsx('ApiFields', {api: 'v1', schema: 'SystemSettings'}));
  for (const table of tree.children as (N & {data?: {hProperties?: Record<string, unknown>}})[]) {
    assert.equal(table.data?.hProperties?.tabIndex, 0);
  }
});
