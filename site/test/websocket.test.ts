import {test} from 'node:test';
import assert from 'node:assert/strict';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import {unified} from 'unified';
import {visit} from 'unist-util-visit';
import {apiFile} from '../api/tooling/documents';
import {docPages, type DocPage} from '../api/tooling/markdown';
import {
  asyncApiProblems,
  messageExampleProblems,
  pageSessionProblems,
  payloadSchema,
  sessionProblems,
  unusedWsSchemas,
  wsMessageCheck,
  wsPayloads,
  wsDocument,
} from '../api/websocket.checks';

const wsPage = docPages().find((p) => p.id === 'v2/websocket')!;

test('the WebSocket description is a well-formed AsyncAPI 3.0 document', () => {
  assert.deepEqual(asyncApiProblems(), []);
});

test('the AsyncAPI document describes every message type of the protocol', () => {
  const names = Object.values(wsDocument().components?.messages ?? {}).map((m) => (m as {name?: string}).name).sort();
  assert.deepEqual(names, [
    'authorization',
    'authorization_requested',
    'authorized',
    'batteries',
    'batteries',
    'device',
    'error',
    'identify',
    'measurement',
    'poll',
    'subscribe',
    'system',
    'system',
    'unsubscribe',
    'user',
  ]);
  assert.deepEqual(unusedWsSchemas(), []);
});

test('every message example matches its payload schema, and the deliberately bad one does not', () => {
  const {problems, checked} = messageExampleProblems();
  assert.deepEqual(problems, []);
  assert.ok(checked >= 15, `only ${checked} examples checked`);
});

test('the example session on the WebSocket page is a valid conversation', () => {
  const {problems, checked} = pageSessionProblems(wsPage);
  assert.deepEqual(problems, []);
  assert.equal(checked, 1);
});

/** The page's inline code spans and its prose (text outside code), read by remark (GFM). */
function proseAndInlineCode(source: string): {inlineCode: Set<string>; prose: string} {
  const inlineCode = new Set<string>();
  const text: string[] = [];
  visit(unified().use(remarkParse).use(remarkGfm).parse(source), (node) => {
    if (node.type === 'inlineCode') inlineCode.add(node.value);
    else if (node.type === 'text') text.push(node.value);
  });
  return {inlineCode, prose: text.join(' ')};
}

test('every message type is explained on the WebSocket page', () => {
  const {inlineCode, prose} = proseAndInlineCode(wsPage.source);
  for (const type of ['authorization_requested', 'authorization', 'authorized', 'subscribe', 'unsubscribe', 'identify', 'error', 'device', 'user', 'measurement', 'system', 'batteries', '*']) {
    assert.ok(inlineCode.has(type), `\`${type}\` is not mentioned as inline code`);
  }
  // The keep-alive interval is said in the text, not only shown in a sample.
  assert.ok(prose.includes('40 seconds'), 'the 40 seconds keep-alive is not explained');
});

test('the messages each side may send, read from the AsyncAPI operations', () => {
  assert.deepEqual(wsPayloads('client'), ['WsAuthorization', 'WsIdentify', 'WsPoll', 'WsSetBatteries', 'WsSetSystem', 'WsSubscribe', 'WsUnsubscribe']);
  assert.deepEqual(wsPayloads('device'), ['WsAuthorizationRequested', 'WsAuthorized', 'WsBatteries', 'WsDevice', 'WsError', 'WsMeasurement', 'WsSystem', 'WsUser']);
});

test('client and device messages: the documented handshake passes, a wrong direction fails', () => {
  const client = wsMessageCheck('client');
  const device = wsMessageCheck('device');
  assert.deepEqual(client({type: 'authorization', data: '8B41E7C0D2F3A9561E0C4B7D2A95F3E1'}), []);
  assert.deepEqual(device({type: 'authorized'}), []);
  assert.notDeepEqual(client({type: 'authorized'}), []);
  assert.notDeepEqual(device({type: 'subscribe', data: 'system'}), []);
  assert.notDeepEqual(client({type: 'subscribe', data: 'gas'}), []);
  assert.notDeepEqual(client({type: 'authorization', data: 'Bearer 8B41E7C0D2F3A9561E0C4B7D2A95F3E1'}), []);
});

test('fixture: a session that skips the handshake, breaks JSON or sends a bad message unanswered is reported', () => {
  const session = [
    '→ {"type": "subscribe", "data": "system"}',
    '← {"type": "authorization_requested", "data": {"api_version": "2.0.0"}}',
    'garbage',
    '→ {"type": "authorization", "data": "8B41E7C0D2F3A9561E0C4B7D2A95F3E1"',
    '→ {"type": "subscribe", "data": "gas"}',
    '← {"type": "system", "data": {"wifi_ssid": "x", "uptime_s": "long"}}',
  ].join('\n');
  const problems = sessionProblems(session);
  assert.match(problems[1]!, /^line 4: not JSON: /);
  assert.deepEqual(problems.filter((_, i) => i !== 1), [
    'line 3: expected "→ {json}" or "← {json}"',
    'line 1: a session starts with authorization_requested from the device',
    'line 1: subscribe sent before the device said authorized',
    'line 5: not a valid client message (subscribe)',
    'line 5: subscribe sent before the device said authorized',
    'line 6: not a valid device message (system)',
    'the session never reaches authorized',
  ]);
});

test('fixture: a page without a marked session block counts zero sessions', () => {
  const page: DocPage = {id: 'v2/fixture', file: '/site/docs/v2/fixture.mdx', source: '```text\n← {}\n```'};
  assert.deepEqual(pageSessionProblems(page), {problems: [], checked: 0});
});

test('every message payload points into v2.openapi.yaml', () => {
  for (const [name, message] of Object.entries(wsDocument().components?.messages ?? {})) {
    assert.match(payloadSchema(message as never) ?? '', /^Ws[A-Z]\w+$/, name);
  }
});

test('@asyncapi/parser reads the AsyncAPI document, with its references into v2.openapi.yaml, without an error diagnostic', async () => {
  const {Parser, fromFile} = await import('@asyncapi/parser');
  const {document, diagnostics} = await fromFile(new Parser(), apiFile('v2-ws')).parse();
  // Severity 0 is an error; warnings and hints (such as "a newer AsyncAPI version exists") are allowed.
  const errors = diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`);
  assert.deepEqual(errors, []);
  assert.ok(document, 'no document');
  // The payloads came through the file references, with their descriptions.
  const system = document.messages().all().find((m) => m.id() === 'system');
  const data = system?.payload()?.properties()?.data;
  assert.equal(data?.description(), 'The system object, as one of the per-device variants.');
  assert.equal(document.operations().all().length, Object.keys(wsDocument().operations ?? {}).length);
});
