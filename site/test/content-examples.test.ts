import {test} from 'node:test';
import assert from 'node:assert/strict';
import {codeBlocks, docPages, type DocPage} from '../api/tooling/markdown';
import {jsonBlockProblems, placeholderProblems, requestBlockProblems} from '../api/tooling/pages';

const pages = docPages();
const fence = '```';
const fixture = (id: string, source: string): DocPage => ({id, file: `/site/docs/${id}.mdx`, source});

test('every json block on every page parses and matches the schema it names', () => {
  assert.ok(pages.length >= 20, `only ${pages.length} pages found`);
  const {problems, checked} = jsonBlockProblems(pages);
  assert.deepEqual(problems, []);
  // Without a count, a scanner that stopped finding blocks would pass with nothing checked.
  const blocks = pages.flatMap((p) => codeBlocks(p.source)).filter((b) => b.lang === 'json').length;
  assert.ok(blocks >= 15, `only ${blocks} json blocks found on the pages`);
  assert.equal(checked, blocks, 'some json blocks were not checked');
});

test('every http and curl request on every page is an operation of its API with a valid body', () => {
  const {problems, checked} = requestBlockProblems(pages);
  assert.deepEqual(problems, []);
  assert.ok(checked >= 10, `only ${checked} requests checked`);
});

test('every <ApiFields>, <ApiExample> and <ApiDownload> names something that exists', () => {
  assert.deepEqual(placeholderProblems(pages), []);
});

test('fixture: json blocks without a schema, with bad JSON or with a wrong field are reported', () => {
  const page = fixture(
    'v1/fixture',
    [
      `${fence}json`, '{"cloud_enabled": true}', fence,
      `${fence}json schema="v1:SystemSettings"`, '{"cloud_enabled": true,}', fence,
      `${fence}json schema="v1:SystemSettings"`, '{"cloud_enable": true}', fence,
      `${fence}json schema="v1:EnergySocketState[]"`, '{"power_on": true}', fence,
      `${fence}json schema="v1:SystemSettings"`, '{"cloud_enabled": false}', fence,
    ].join('\n'),
  );
  const {problems, checked} = jsonBlockProblems([page]);
  assert.equal(checked, 3);
  assert.equal(problems.length, 4);
  assert.match(problems[0]!, /^docs\/v1\/fixture\.mdx:1 json block has no schema="api:Name"/);
  assert.match(problems[1]!, /^docs\/v1\/fixture\.mdx:4 json block does not parse/);
  assert.match(problems[2]!, /:7 does not match v1:SystemSettings: .*must NOT have unevaluated properties \(cloud_enable\)/);
  assert.match(problems[3]!, /:10 does not match v1:EnergySocketState\[\]: \(root\) should be an array/);
});

test('fixture: unknown paths, wrong methods and bad bodies in http and curl blocks are reported', () => {
  const page = fixture(
    'v1/fixture',
    [
      `${fence}http`, 'PUT /api/v1/state HTTP/1.1', 'Host: 192.168.1.10', 'Content-Type: application/json', '', '{"brightness": 500}', fence,
      `${fence}bash`, 'curl -X POST http://192.168.1.10/api/v1/system \\', "  -d '{\"cloud_enabled\": false}'", fence,
      `${fence}bash`, 'curl http://<ip>/api/v1/dat', fence,
      `${fence}bash`, "curl -X PUT http://<ip>/api/v1/state -d '{\"power_on\": false}'", fence,
      `${fence}http body="invalid"`, 'PUT /api/v1/state HTTP/1.1', '', '{"power_on": invalid_value}', fence,
      `${fence}bash`, 'curl -X PUT http://<ip>/api/v1/identify', fence,
      `${fence}bash`, 'curl -X PUT http://<ip>/api/v1/state', fence,
    ].join('\n'),
  );
  const {problems, checked} = requestBlockProblems([page]);
  assert.equal(checked, 7);
  assert.deepEqual(problems, [
    'docs/v1/fixture.mdx:1 request body does not match: /brightness must be <= 255',
    'docs/v1/fixture.mdx:8 POST /api/v1/system is not an operation of the v1 description',
    'docs/v1/fixture.mdx:12 GET /api/v1/dat is not an operation of the v1 description',
    'docs/v1/fixture.mdx:26 PUT /api/v1/state needs a body',
  ]);
});

test('fixture: a request on a general page needs a scheme or an api meta', () => {
  const page = fixture('introduction', [`${fence}http`, 'GET /api HTTP/1.1', fence, `${fence}http api="v1"`, 'GET /api HTTP/1.1', fence].join('\n'));
  const {problems, checked} = requestBlockProblems([page]);
  assert.equal(checked, 1);
  assert.deepEqual(problems, [
    'docs/introduction.mdx:1 cannot tell which API this request is for; add api="v1" or api="v2" to the meta line',
  ]);
});

test('fixture: placeholders naming a missing schema, field or example are reported', () => {
  const page = fixture(
    'v1/fixture',
    [
      '<ApiFields api="v1" schema="Nope" />',
      '<ApiFields api="v1" schema="SystemSettings" fields="cloud_enabled, wifi" />',
      '<ApiExample api="v1" name="Missing" />',
      '<ApiDownload api="v7" />',
      '<ApiExample api="v1" name="SystemGet" />',
    ].join('\n'),
  );
  assert.deepEqual(placeholderProblems([page]), [
    'docs/v1/fixture.mdx:1 API "v1" has no schema "Nope"',
    'docs/v1/fixture.mdx:2 schema "SystemSettings" of API "v1" has no field "wifi"',
    'docs/v1/fixture.mdx:3 API "v1" has no example "Missing"',
    'docs/v1/fixture.mdx:4 unknown API "v7"; known APIs: v1, v2, v2-ws',
  ]);
});
