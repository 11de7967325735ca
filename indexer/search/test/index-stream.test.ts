/**
 * A one-file index read while it downloads (engine/index-stream.ts): the client answers exactly
 * as from the file parsed whole, however the bytes are cut, and falls back to parsing it whole
 * when the file is laid out otherwise.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createLocalSearchClient, RetryError} from '../src/client.ts';
import {modalParams} from '../src/engine/answer.ts';
import {packRecords} from '../src/engine/index-file.ts';
import {IndexFileStream} from '../src/engine/index-stream.ts';
import {LocalSearchEngine} from '../src/engine/search.ts';
import type {SearchRecord} from '../src/record/constants.ts';
import {ORIGIN, recordsWithLongParagraph} from '../src/testing/search-records.ts';

/** The fixture, and a paragraph of quotes, backslashes and characters of several UTF-8 bytes. */
function records(): SearchRecord[] {
  const list = recordsWithLongParagraph();
  const base = list.find((r) => r.type === 'content')!;
  list.push({...base, objectID: 'x1', content: 'Quoted "power" \\ back\\\\slash, naïve café € 😀 "\\"', weight: {...base.weight, position: base.weight.position + 1}});
  return list;
}

const QUERIES = ['', 'p', 'power', 'active power', 'batery', 'naïve', 'café', 'slash', 'token ', 'mdns'];

/** The answers a client gives, from a body cut into pieces of `size` bytes (json(): the whole file). */
async function answers(file: string, size: number | 'json'): Promise<string[]> {
  const bytes = new TextEncoder().encode(file);
  const client = createLocalSearchClient({
    indexUrl: '/search/local-index.json',
    fetch: async () => ({
      ok: true,
      status: 200,
      json: async () => JSON.parse(file) as unknown,
      body:
        size === 'json'
          ? null
          : new ReadableStream<Uint8Array>({
              start(controller) {
                for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
                controller.close();
              },
            }),
    }),
  });
  const out: string[] = [];
  for (const q of QUERIES) {
    const {results} = await client.search({requests: [{indexName: 'docs', ...modalParams(q)}]});
    out.push(JSON.stringify({...results[0], processingTimeMS: 0}));
  }
  return out;
}

test('packRecords writes the texts last (the client reads them as they come)', () => {
  assert.deepEqual(Object.keys(packRecords(records(), ORIGIN)).at(-1), 'texts');
});

test('the records are read as the file comes, each once its text is in; a manifest is kept whole', () => {
  const list = records();
  const file = JSON.stringify(packRecords(list, ORIGIN));
  const stream = new IndexFileStream();
  // all but the end of the last text
  stream.push(file.slice(0, file.length - 5));
  assert.equal(stream.recordsRead, list.length - 1);
  stream.push(file.slice(file.length - 5));
  assert.equal(stream.recordsRead, list.length);
  assert.ok('engine' in stream.end());
  const manifest = new IndexFileStream();
  manifest.push('{"format":3,"engine":"docs-search","pages":[]}');
  assert.equal(manifest.recordsRead, 0);
  assert.deepEqual(manifest.end(), {json: {format: 3, engine: 'docs-search', pages: []}});
});

test('an index read while it downloads answers as the index parsed whole, however its bytes are cut', async () => {
  const file = JSON.stringify(packRecords(records(), ORIGIN));
  const whole = await answers(file, 'json');
  assert.ok(whole.some((a) => a.includes('naïve')), 'the multi-byte paragraph is found');
  for (const size of [1, 2, 3, 7, 64, 1000, file.length]) assert.deepEqual(await answers(file, size), whole, `pieces of ${size} bytes`);
});

test('a URL that comes back after another section: the same engine as from the records at once', () => {
  const list = records();
  // the page's first record again, after the sections between
  const scattered = [...list, {...list[1]!, objectID: 'again', content: 'token again', type: 'content' as const}];
  const file = JSON.stringify(packRecords(scattered, ORIGIN));
  const direct = new LocalSearchEngine(scattered.map((r, i) => ({...r, objectID: String(i)})));
  const viaFile = LocalSearchEngine.fromIndexFile(JSON.parse(file));
  for (const q of ['token', 'token again', 'power']) {
    assert.deepEqual(
      viaFile.search(q).hits.map((h) => h.record.url),
      direct.search(q).hits.map((h) => h.record.url),
    );
  }
  return answers(file, 5).then(async (streamed) => assert.deepEqual(streamed, await answers(file, 'json')));
});

test('a file laid out otherwise (texts first) is parsed whole: the same answers', async () => {
  const packed = packRecords(records(), ORIGIN);
  const {format, texts, ...rest} = packed;
  const file = JSON.stringify({format, texts, ...rest});
  assert.deepEqual(await answers(file, 9), await answers(JSON.stringify(packed), 'json'));
});

test('a cut or broken file read as it comes: "Unable to fetch results" (RetryError), as parsed whole', async () => {
  const file = JSON.stringify(packRecords(records(), ORIGIN));
  for (const broken of [file.slice(0, file.length - 40), file.replace('"types":"', '"types":"9'), `${file}x`]) {
    await assert.rejects(answers(broken, 50), RetryError);
  }
});
