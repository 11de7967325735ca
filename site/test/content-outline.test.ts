import {test} from 'node:test';
import assert from 'node:assert/strict';
import {docPages, tables, withoutCode} from '../api/tooling/markdown';

/** The pages of part 1 (general pages and API v1). */
const OWN = ['introduction', 'getting-started', 'discovery', 'versioning', 'changelog'];
const pages = docPages().filter((p) => OWN.includes(p.id) || p.id.startsWith('v1/'));

type Heading = {level: number; text: string; line: number};

function headings(source: string): Heading[] {
  return withoutCode(source)
    .split('\n')
    .map((line, i) => ({m: /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line), line: i + 1}))
    .filter((h) => h.m)
    .map((h) => ({level: h.m![1]!.length, text: h.m![2]!, line: h.line}));
}

function slug(text: string): string {
  return text.toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s+/g, '-');
}

test('part 1 has all twelve pages', () => {
  assert.deepEqual(pages.map((p) => p.id).sort(), [
    'changelog', 'discovery', 'getting-started', 'introduction',
    'v1/api', 'v1/error-handling', 'v1/identify', 'v1/measurement', 'v1/state', 'v1/system', 'v1/telegram',
    'versioning',
  ]);
});

test('every page has a clean h2/h3 outline with unique anchors', () => {
  for (const page of pages) {
    const hs = headings(page.source);
    assert.ok(hs.filter((h) => h.level === 2).length >= 3, `${page.id}: fewer than three h2 sections`);
    let previous = 1;
    for (const h of hs) {
      assert.ok(h.level >= 2 && h.level <= 3, `${page.id}:${h.line} heading level ${h.level} (use h2/h3)`);
      assert.ok(h.level <= previous + 1, `${page.id}:${h.line} jumps from h${previous} to h${h.level}`);
      previous = h.level;
    }
    const slugs = hs.map((h) => slug(h.text));
    const dupes = slugs.filter((s, i) => slugs.indexOf(s) !== i);
    assert.deepEqual(dupes, [], `${page.id}: duplicate headings`);
  }
});

test('every endpoint page shows the request in http and curl, the errors and the pitfalls', () => {
  for (const page of pages.filter((p) => p.id.startsWith('v1/') && p.id !== 'v1/error-handling')) {
    assert.match(page.source, /```http\n/, `${page.id}: no http request`);
    assert.match(page.source, /```bash\n[^`]*curl /, `${page.id}: no curl request`);
    assert.match(page.source, /<ApiExample api="v1"|```json/, `${page.id}: no example response`);
    assert.match(page.source, /^## Errors$/m, `${page.id}: no Errors section`);
    assert.match(page.source, /^## Pitfalls$/m, `${page.id}: no Pitfalls section`);
    assert.match(page.source, /<ApiDownload api="v1" \/>/, `${page.id}: no link to the OpenAPI description`);
  }
});

/** Search queries from the relevance set, and the page of part 1 that must answer them. */
const QUERIES: [string, string][] = [
  ['switch lock', 'v1/state'],
  ['brightness', 'v1/state'],
  ['water meter', 'v1/measurement'],
  ['active power', 'v1/measurement'],
  ['voltage', 'v1/measurement'],
  ['gas', 'v1/measurement'],
  ['serial number', 'v1/api'],
  ['firmware version', 'v1/api'],
  ['api_version', 'v1/api'],
  ['identify', 'v1/identify'],
  ['cloud_enabled', 'v1/system'],
  ['raw telegram', 'v1/telegram'],
  ['mdns', 'discovery'],
  ['api_version', 'discovery'],
  ['X-Api-Version', 'versioning'],
  ['enable the local api', 'getting-started'],
  ['changelog', 'changelog'],
];

test('each search query of part 1 appears in a title, heading or table key of its page', () => {
  for (const [query, id] of QUERIES) {
    const page = pages.find((p) => p.id === id)!;
    const title = /^title:\s*(.*)$/m.exec(page.source)?.[1] ?? '';
    const keys = tables(page.source).flatMap((t) => t.rows.map((r) => r[0] ?? ''));
    const places = [title, ...headings(page.source).map((h) => h.text), ...keys].map((t) => t.replace(/`/g, '').toLowerCase());
    assert.ok(places.some((t) => t.includes(query.toLowerCase())), `"${query}" is not in a title, heading or table key of ${id}`);
  }
});

/**
 * Names written in prose on the v1 pages. Snake-case names in `inline code` must be fields of a
 * registered API description; the few exceptions are named here with the reason.
 */
const NOT_V1_FIELDS: Record<string, string> = {
  unique_gas_id: 'the wrong spelling from one older field list, named to warn about it',
  monthly_power_peak_w: 'the API v2 name, for comparison',
  wifi_rssi_db: 'the API v2 name, for comparison',
  status_led_brightness_pct: 'the API v2 name, for comparison',
  api_v1_enabled: 'the API v2 setting that switches v1 on or off',
};

test('every field name written in the prose of a v1 page exists in an API description', async () => {
  const {allFieldNames} = await import('../api/tooling/pages');
  const {API_DOCUMENTS} = await import('../api/tooling/documents');
  const known = new Set(Object.keys(API_DOCUMENTS).flatMap((api) => [...allFieldNames(api)]));
  const unknown: string[] = [];
  for (const page of pages.filter((p) => p.id.startsWith('v1/'))) {
    const prose = withoutCode(page.source).replace(/<Api\w+[^>]*\/>/g, '');
    for (const m of prose.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)) {
      if (!known.has(m[1]!) && !(m[1]! in NOT_V1_FIELDS)) unknown.push(`${page.id}: ${m[1]}`);
    }
  }
  assert.deepEqual([...new Set(unknown)], []);
});
