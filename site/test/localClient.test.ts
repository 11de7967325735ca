/**
 * The local search client answers the DocSearch modal and the /search page exactly like Algolia's
 * lite client would: response shapes, highlight and snippets, escaping, facets, pages, errors.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createLocalSearchClient, packRecords, parseParamString, type AlgoliaHit} from 'docs-search';
import {ORIGIN, SITE_RECORDS, recordsWithLongParagraph, LONG_CONTENT} from 'docs-search/testing';

const INDEX = 'homewizard-api-docs';
const CONTEXT = ['language:en', ['docusaurus_tag:default', 'docusaurus_tag:docs-default-current']];

function clientFor(records = SITE_RECORDS) {
  const file = JSON.parse(JSON.stringify(packRecords(records, ORIGIN)));
  const fetched: string[] = [];
  const client = createLocalSearchClient({
    indexUrl: '/search/local-index.json',
    fetch: async (url) => {
      fetched.push(url);
      return {ok: true, status: 200, json: async () => file};
    },
  });
  return {client, fetched};
}

/** What DocSearch 3.9.0 sends for one keystroke. */
function modalRequest(query: string, words = 10) {
  return {
    requests: [
      {
        query,
        indexName: INDEX,
        attributesToRetrieve: ['hierarchy.lvl0', 'hierarchy.lvl1', 'hierarchy.lvl2', 'hierarchy.lvl3', 'hierarchy.lvl4', 'hierarchy.lvl5', 'hierarchy.lvl6', 'content', 'type', 'url'],
        attributesToSnippet: [`hierarchy.lvl1:${words}`, `hierarchy.lvl2:${words}`, `hierarchy.lvl3:${words}`, `hierarchy.lvl4:${words}`, `hierarchy.lvl5:${words}`, `hierarchy.lvl6:${words}`, `content:${words}`],
        snippetEllipsisText: '…',
        highlightPreTag: '<mark>',
        highlightPostTag: '</mark>',
        hitsPerPage: 20,
        clickAnalytics: false,
        facetFilters: CONTEXT,
      },
    ],
  };
}

function path(hit: AlgoliaHit): string {
  return String(hit.url).slice(ORIGIN.length);
}
type HL = {value: string; matchLevel: string; matchedWords: string[]};
const snip = (hit: AlgoliaHit, attr: 'content' | 'lvl1' | 'lvl2') =>
  (attr === 'content' ? (hit._snippetResult as {content: HL}).content : (hit._snippetResult as {hierarchy: Record<string, HL>}).hierarchy[attr]!);

test('the index is fetched on the first search, once, and not when the client is created', async () => {
  const {client, fetched} = clientFor();
  assert.deepEqual(fetched, []);
  await Promise.all([client.search(modalRequest('token')), client.search(modalRequest('tok'))]);
  await client.search(modalRequest('gas'));
  assert.deepEqual(fetched, ['/search/local-index.json']);
});

test('modal form: hits with the retrieved attributes, nbHits, and Algolia highlight/snippet results', async () => {
  const {client} = clientFor();
  const {results} = await client.search(modalRequest('token'));
  const [res] = results;
  assert.ok(res);
  assert.equal(res.index, INDEX);
  assert.equal(res.query, 'token');
  assert.equal(res.hitsPerPage, 20);
  assert.equal(res.nbHits, res.hits.length);
  assert.ok(res.nbHits >= 2);
  const top = res.hits[0]!;
  assert.equal(path(top), '/docs/v2/authorization');
  assert.ok(top.objectID);
  assert.equal(top.type, 'content');
  assert.deepEqual(Object.keys(top).sort(), ['_highlightResult', '_snippetResult', 'content', 'hierarchy', 'objectID', 'type', 'url']);
  const hl = top._highlightResult as {hierarchy: Record<string, HL>; content: HL};
  assert.equal(hl.hierarchy.lvl0!.value, 'API v2');
  assert.equal(hl.hierarchy.lvl2, undefined, 'null levels have no highlight entry');
  assert.match(hl.content.value, /bearer <mark>token<\/mark>\. Create/);
  assert.equal(hl.content.matchLevel, 'full');
  assert.deepEqual(hl.content.matchedWords, ['token']);
  assert.equal(snip(top, 'content').value, '…a bearer <mark>token</mark>. Create a user with a button press …');
});

test('snippets keep 10 words, or 5 when the modal asks for 5', async () => {
  const {client} = clientFor(recordsWithLongParagraph());
  const ten = (await client.search(modalRequest('needle', 10))).results[0]!.hits[0]!;
  const five = (await client.search(modalRequest('needle', 5))).results[0]!.hits[0]!;
  const words = (s: string) => s.replace(/…/g, '').trim().split(/\s+/).length;
  assert.equal(words(snip(ten, 'content').value), 10);
  assert.equal(words(snip(five, 'content').value), 5);
  assert.match(snip(five, 'content').value, /^….*<mark>needle<\/mark>.* …$/);
  assert.equal((ten._highlightResult as {content: HL}).content.value, LONG_CONTENT.replace('needle', '<mark>needle</mark>'));
});

test('identifiers are found whole and by their parts, as the reader types, with a typo', async () => {
  const {client} = clientFor();
  const first = async (q: string) => {
    const hit = (await client.search(modalRequest(q))).results[0]!.hits[0];
    return hit ? path(hit) : null;
  };
  assert.equal(await first('active_power_w'), '/docs/v2/measurement#fields');
  assert.equal(await first('active pow'), '/docs/v2/measurement#fields');
  assert.equal(await first('user:unauthorized'), '/docs/v2/authorization#errors');
  assert.equal(await first('unauthorized'), '/docs/v2/authorization#errors');
  assert.equal(await first('X-Api-Version'), '/docs/versioning#header');
  assert.equal(await first('x-api-ver'), '/docs/versioning#header');
  assert.equal(await first('_hwenergy._tcp'), '/docs/discovery#mdns');
  assert.equal(await first('hwenergy'), '/docs/discovery#mdns');
  assert.equal(await first('measurment'), '/docs/v2/measurement');
  assert.equal(await first('zzzzqqq'), null);
  const hit = (await client.search(modalRequest('active_power_w'))).results[0]!.hits[0]!;
  assert.match(snip(hit, 'content').value, /^<mark>active_power_w<\/mark> is the total/);
});

test('record text stays escaped: a code sample with an <img onerror> tag is text, the query cannot inject HTML', async () => {
  const {client} = clientFor();
  const hit = (await client.search(modalRequest('onerror'))).results[0]!.hits[0]!;
  assert.equal(hit.content, 'A sample that shows &lt;img src=x onerror=alert(1)&gt; as text, and the &amp; sign.');
  const value = (hit._highlightResult as {content: HL}).content.value;
  assert.equal(value, 'A sample that shows &lt;img src=x <mark>onerror</mark>=alert(1)&gt; as text, and the &amp; sign.');
  assert.doesNotMatch(value.replace(/<\/?mark>/g, ''), /<|>/);
  // Queries made of markup or entity names never produce tags other than <mark>.
  for (const q of ['<img src=x onerror=alert(1)>', 'lt', 'amp', '&lt;', '"><script>', '<mark>']) {
    const res = (await client.search(modalRequest(q))).results[0]!;
    for (const h of res.hits) {
      for (const v of [(h._highlightResult as {content?: HL}).content?.value, (h._snippetResult as {content?: HL}).content?.value]) {
        if (v === undefined) continue;
        assert.doesNotMatch(v.replace(/<\/?mark>/g, ''), /<|>/, `query ${q} gave ${v}`);
        assert.doesNotMatch(v, /&(?:l|g|am)?<mark>/, `a tag inside an entity for query ${q}: ${v}`);
      }
    }
  }
});

test('contextual facet filters keep only matching records; an unknown tag gives no hits', async () => {
  const {client} = clientFor();
  const req = modalRequest('documentation');
  const all = (await client.search(req)).results[0]!;
  assert.ok(all.hits.some((h) => path(h) === '/'));
  req.requests[0]!.facetFilters = ['language:en', ['docusaurus_tag:docs-default-current']];
  const docs = (await client.search(req)).results[0]!;
  assert.ok(docs.hits.every((h) => path(h) !== '/'));
  req.requests[0]!.facetFilters = ['language:fr'];
  assert.equal((await client.search(req)).results[0]!.nbHits, 0);
});

test('legacy form (/search page): pages, nbPages, facets and the index default highlight tags', async () => {
  const {client} = clientFor();
  const params = {query: 'measurement', hitsPerPage: 2, page: 0, facets: ['docusaurus_tag', 'language'], facetFilters: CONTEXT};
  const {results} = await client.search([{indexName: INDEX, params}]);
  const first = results[0]!;
  assert.equal(first.page, 0);
  assert.equal(first.hitsPerPage, 2);
  assert.equal(first.hits.length, 2);
  assert.ok(first.nbHits > 2);
  assert.equal(first.nbPages, Math.ceil(first.nbHits / 2));
  assert.equal(first.exhaustiveNbHits, true);
  assert.deepEqual(first.facets, {docusaurus_tag: {'docs-default-current': first.nbHits}, language: {en: first.nbHits}});
  const hl = first.hits[0]!._highlightResult as {hierarchy: Record<string, HL>};
  assert.equal(hl.hierarchy.lvl1!.value, '<span class="algolia-docsearch-suggestion--highlight">Measurement</span>');
  assert.ok(first.hits[0]!.url_without_anchor, 'all attributes are retrieved by default');
  const second = (await client.search([{indexName: INDEX, params: {...params, page: 1}}])).results[0]!;
  assert.equal(second.page, 1);
  assert.notDeepEqual(second.hits.map((h) => h.objectID), first.hits.map((h) => h.objectID));
  const beyond = (await client.search([{indexName: INDEX, params: {...params, page: 99}}])).results[0]!;
  assert.deepEqual(beyond.hits, []);
});

test('legacy form accepts params as a query string, and several queries at once', async () => {
  const {client} = clientFor();
  const qs = `query=gas&hitsPerPage=5&facetFilters=${encodeURIComponent(JSON.stringify(['language:en']))}`;
  assert.deepEqual(parseParamString(qs), {query: 'gas', hitsPerPage: 5, facetFilters: ['language:en']});
  const {results} = await client.search([
    {indexName: INDEX, params: qs},
    {indexName: INDEX, params: {query: 'gas', hitsPerPage: 0, facets: ['language']}},
  ]);
  assert.equal(results.length, 2);
  assert.equal(path(results[0]!.hits[0]!), '/docs/v1/measurement#gas-and-water');
  assert.deepEqual(results[1]!.hits, []);
  assert.deepEqual(results[1]!.facets, {language: {en: results[1]!.nbHits}});
});

test('an index that cannot be fetched rejects with a RetryError, and the next search tries again', async () => {
  let calls = 0;
  const file = JSON.parse(JSON.stringify(packRecords(SITE_RECORDS, ORIGIN)));
  const client = createLocalSearchClient({
    indexUrl: '/search/local-index.json',
    fetch: async () => {
      calls++;
      if (calls === 1) throw new TypeError('Failed to fetch');
      if (calls === 2) return {ok: false, status: 404, json: async () => ({})};
      if (calls === 3) return {ok: true, status: 200, json: async () => ({not: 'an index'})};
      return {ok: true, status: 200, json: async () => file};
    },
  });
  for (let i = 0; i < 3; i++) {
    await assert.rejects(client.search(modalRequest('token')), (e: Error) => e.name === 'RetryError');
  }
  const {results} = await client.search(modalRequest('token'));
  assert.ok(results[0]!.nbHits > 0);
  assert.equal(calls, 4);
});
