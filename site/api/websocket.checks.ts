/**
 * Checks for the WebSocket description (websocket.asyncapi.yaml) and the WebSocket page. The
 * AsyncAPI document holds channels, operations and messages; every message payload points at a
 * `Ws*` schema in v2.openapi.yaml, so one set of schemas checks HTTPS and WebSocket examples.
 */
import {loadApi, type ApiDocument} from './tooling/documents';
import {codeBlocks, type DocPage} from './tooling/markdown';
import {inlineCheck, schemaCheck, type Mode} from './tooling/validate';

export const WS_API = 'v2-ws';
const OPENAPI_REF = /^\.\/v2\.openapi\.yaml#\/components\/schemas\/(\w+)$/;

type Ref = {$ref: string};
type MessageExample = {name?: string; payload: unknown};
type Message = {name?: string; title?: string; payload?: Ref; examples?: MessageExample[]; 'x-invalid-examples'?: MessageExample[]};
type Operation = {action?: string; channel?: Ref; messages?: Ref[]; reply?: {channel?: Ref; messages?: Ref[]}};
type AsyncApi = ApiDocument & {
  channels?: Record<string, {address?: string; messages?: Record<string, Ref | Message>}>;
  operations?: Record<string, Operation>;
  components?: ApiDocument['components'] & {messages?: Record<string, Message>};
};

export function wsDocument(): AsyncApi {
  return loadApi(WS_API) as AsyncApi;
}

function pointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return node;
}

/** Every `$ref` in the document, with where it sits. */
function refs(node: unknown, at = '#'): {at: string; ref: string}[] {
  if (!node || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((n, i) => refs(n, `${at}/${i}`));
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) =>
    k === '$ref' && typeof v === 'string' ? [{at, ref: v}] : refs(v, `${at}/${k}`),
  );
}

/** The schema name in v2.openapi.yaml a message payload points at. */
export function payloadSchema(message: Message): string | undefined {
  return OPENAPI_REF.exec(message.payload?.$ref ?? '')?.[1];
}

/** Structure of the AsyncAPI 3.0 document: version, resolvable references, operations on declared messages. */
export function asyncApiProblems(doc: AsyncApi = wsDocument()): string[] {
  const problems: string[] = [];
  if (doc.asyncapi !== '3.0.0') problems.push(`asyncapi is "${doc.asyncapi}", expected "3.0.0"`);
  if (!doc.info?.title || !doc.info?.version) problems.push('info needs a title and a version');
  const v2Schemas = loadApi('v2').components?.schemas ?? {};
  for (const {at, ref} of refs(doc)) {
    const external = OPENAPI_REF.exec(ref);
    if (external) {
      if (!v2Schemas[external[1]!]) problems.push(`${at}: ${ref} names no schema of v2.openapi.yaml`);
    } else if (pointer(doc, ref) === undefined) {
      problems.push(`${at}: ${ref} does not resolve`);
    }
  }
  for (const [name, channel] of Object.entries(doc.channels ?? {})) {
    if (!channel.address) problems.push(`channel ${name} has no address`);
  }
  for (const [name, op] of Object.entries(doc.operations ?? {})) {
    if (op.action !== 'send' && op.action !== 'receive') problems.push(`operation ${name}: action must be send or receive`);
    const channelRef = op.channel?.$ref ?? '';
    for (const m of [...(op.messages ?? []), ...(op.reply?.messages ?? [])]) {
      const base = m.$ref.split('/messages/')[0];
      const replyChannel = op.reply?.channel?.$ref ?? channelRef;
      if (base !== channelRef && base !== replyChannel) problems.push(`operation ${name}: message ${m.$ref} is not in its channel`);
    }
  }
  for (const [name, message] of Object.entries(doc.components?.messages ?? {})) {
    if (!payloadSchema(message)) problems.push(`message ${name}: payload must point at a Ws* schema of v2.openapi.yaml`);
    if (!message.examples?.length) problems.push(`message ${name} has no example`);
  }
  return problems;
}

/** Every message example must match its payload schema; those under `x-invalid-examples` must not. */
export function messageExampleProblems(doc: AsyncApi = wsDocument()): {problems: string[]; checked: number} {
  const problems: string[] = [];
  let checked = 0;
  for (const [name, message] of Object.entries(doc.components?.messages ?? {})) {
    const schema = payloadSchema(message);
    if (!schema) continue;
    const check = schemaCheck('v2', schema);
    for (const example of message.examples ?? []) {
      checked++;
      const found = check(example.payload);
      if (found.length) problems.push(`message ${name} example ${example.name ?? '?'} does not match ${schema}: ${found.join('; ')}`);
    }
    for (const example of message['x-invalid-examples'] ?? []) {
      checked++;
      if (!check(example.payload).length) {
        problems.push(`message ${name} example ${example.name ?? '?'} is marked invalid but matches ${schema}`);
      }
    }
  }
  return {problems, checked};
}

/** Ws* schemas of v2.openapi.yaml that no AsyncAPI message uses (WsTopic is used inside them). */
export function unusedWsSchemas(doc: AsyncApi = wsDocument()): string[] {
  const used = new Set(Object.values(doc.components?.messages ?? {}).map(payloadSchema));
  return Object.keys(loadApi('v2').components?.schemas ?? {}).filter((n) => /^Ws/.test(n) && !used.has(n) && n !== 'WsTopic');
}

/**
 * The payload schemas one side may send, read from the operations: `receive` operations carry
 * what the client sends, `send` operations and the replies to `receive` ones what the device sends.
 */
export function wsPayloads(side: 'client' | 'device', doc: AsyncApi = wsDocument()): string[] {
  const names = new Set<string>();
  const add = (ref: Ref) => {
    const inChannel = pointer(doc, ref.$ref) as Ref | Message | undefined;
    const message = (inChannel && '$ref' in inChannel ? pointer(doc, inChannel.$ref) : inChannel) as Message | undefined;
    const name = message && payloadSchema(message);
    if (name) names.add(name);
  };
  for (const op of Object.values(doc.operations ?? {})) {
    if (side === 'client' && op.action === 'receive') op.messages?.forEach(add);
    if (side === 'device' && op.action === 'send') op.messages?.forEach(add);
    if (side === 'device' && op.action === 'receive') op.reply?.messages?.forEach(add);
  }
  return [...names].sort();
}

/** A checker for any message one side may send (closed mode: no unknown fields in our own examples). */
export function wsMessageCheck(side: 'client' | 'device', mode: Mode = 'closed'): (value: unknown) => string[] {
  return inlineCheck('v2', {anyOf: wsPayloads(side).map((n) => ({$ref: `#/components/schemas/${n}`}))}, mode);
}

export type SessionLine = {direction: 'client' | 'device'; message: unknown; line: number};

/**
 * Reads a session transcript: `→ {json}` is sent by the client, `← {json}` by the device. Other
 * non-empty lines are an error.
 */
export function parseSession(text: string, firstLine = 1): {lines: SessionLine[]; problems: string[]} {
  const lines: SessionLine[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = firstLine + i;
    if (!raw.trim()) return;
    const m = /^\s*(→|←)\s*(.*)$/.exec(raw);
    if (!m) {
      problems.push(`line ${line}: expected "→ {json}" or "← {json}"`);
      return;
    }
    try {
      lines.push({direction: m[1] === '→' ? 'client' : 'device', message: JSON.parse(m[2]!), line});
    } catch (error) {
      problems.push(`line ${line}: not JSON: ${(error as Error).message}`);
    }
  });
  return {lines, problems};
}

/**
 * A session is valid when every client message matches a message the client may send (or is
 * answered with an error), every device message matches one the device sends, and it starts with the handshake: authorization_requested, authorization,
 * authorized, with nothing else from the client before `authorized`.
 */
export function sessionProblems(text: string, firstLine = 1): string[] {
  const {lines, problems} = parseSession(text, firstLine);
  const client = wsMessageCheck('client');
  const device = wsMessageCheck('device');
  let authorized = false;
  lines.forEach((l, i) => {
    const type = (l.message as {type?: unknown})?.type;
    const found = (l.direction === 'client' ? client : device)(l.message);
    // A client message the schemas reject is allowed only when the device answers it with an error.
    const next = lines[i + 1];
    const answeredByError = next?.direction === 'device' && (next.message as {type?: unknown})?.type === 'error';
    if (found.length && !(l.direction === 'client' && answeredByError)) {
      problems.push(`line ${l.line}: not a valid ${l.direction} message (${String(type)})`);
    }
    if (!found.length && l.direction === 'client' && answeredByError && type !== 'subscribe' && type !== 'unsubscribe') {
      problems.push(`line ${l.line}: a valid ${String(type)} message is answered with an error`);
    }
    if (i === 0 && !(l.direction === 'device' && type === 'authorization_requested')) {
      problems.push(`line ${l.line}: a session starts with authorization_requested from the device`);
    }
    if (l.direction === 'client' && !authorized && type !== 'authorization') {
      problems.push(`line ${l.line}: ${String(type)} sent before the device said authorized`);
    }
    if (l.direction === 'device' && type === 'authorized') authorized = true;
  });
  if (!authorized) problems.push('the session never reaches authorized');
  return problems;
}

/** The ```text blocks marked `session="v2"` on a page, checked as sessions. */
export function pageSessionProblems(page: DocPage): {problems: string[]; checked: number} {
  const problems: string[] = [];
  let checked = 0;
  for (const block of codeBlocks(page.source)) {
    if (block.meta.session !== 'v2') continue;
    checked++;
    for (const p of sessionProblems(block.value, block.line + 1)) problems.push(`docs/${page.id}: ${p}`);
  }
  return {problems, checked};
}
