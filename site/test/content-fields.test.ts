import {test} from 'node:test';
import assert from 'node:assert/strict';
import {API_DOCUMENTS} from '../api/tooling/documents';
import {docPages, type DocPage} from '../api/tooling/markdown';
import {undocumentedFields, unknownTableFields} from '../api/tooling/pages';

const pages = docPages();
const fixture = (id: string, source: string): DocPage => ({id, file: `/site/docs/${id}.mdx`, source});

for (const api of Object.keys(API_DOCUMENTS)) {
  test(`${api}: every field in the description is documented on a page`, () => {
    assert.deepEqual(undocumentedFields(pages, api), []);
  });
}

test('every field named in a hand-written field table exists in the description', () => {
  const {problems, checked} = unknownTableFields(pages);
  assert.deepEqual(problems, []);
  assert.ok(checked >= 20, `only ${checked} table cells checked`);
});

test('fixture: a field missing from the pages is reported', () => {
  const page = fixture('v1/fixture', '<ApiFields api="v1" schema="EnergySocketState" fields="power_on" />');
  const missing = undocumentedFields([page], 'v1');
  assert.ok(missing.includes('v1:EnergySocketState.switch_lock'));
  assert.ok(!missing.includes('v1:EnergySocketState.power_on'));
});

test('fixture: a hand-written table counts as documentation and is checked for unknown fields', () => {
  const page = fixture(
    'v1/fixture',
    ['| Field | Meaning |', '|---|---|', '| `cloud_enabled` | cloud |', '| `cloud_enable` | typo |', '', '| v1 field | v2 field |', '|---|---|', '| `montly_power_peak_w`, `smr_versoin` | `monthly_power_peak_w` |'].join('\n'),
  );
  assert.ok(!undocumentedFields([page], 'v1').includes('v1:SystemSettings.cloud_enabled'));
  const {problems} = unknownTableFields([page]);
  assert.deepEqual(problems, [
    'docs/v1/fixture.mdx:4 field `cloud_enable` is not in the v1 description',
    'docs/v1/fixture.mdx:8 field `smr_versoin` is not in the v1 description',
  ]);
});
