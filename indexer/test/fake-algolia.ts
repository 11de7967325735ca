/**
 * A local stand-in for Algolia's REST API (the calls algoliasearch v5 makes for publishing),
 * with in-memory indexes and faults that can be injected at every step. It records every state
 * the live index goes through, so tests can assert it was never partially updated.
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import type {Socket} from 'node:net';
import {gunzipSync} from 'node:zlib';
import type {PublishOptions} from '../src/publish/algolia/publish.ts';

export type Step =
  | 'getObject'
  | 'getSettings'
  | 'setSettings'
  | 'copy'
  | 'move'
  | 'batch'
  | 'task'
  | 'browse'
  | 'deleteIndex'
  | 'listIndices'
  | 'queries'
  | 'searchSynonyms'
  | 'saveSynonyms'
  | 'clearSynonyms'
  | 'other';

/**
 * `echo-key`: a 400 whose message repeats the API key the request carried (a careless server).
 * Broken browse answers (200): `same-cursor` always gives the same cursor, `endless-cursor` a new
 * one every time (with no hits), `bad-shape` an object whose `hits` is not a list.
 */
export type Fault =
  | 500 | 502 | 503 | 429 | 403 | 400 | 'timeout' | 'drop' | 'drop-after' | 'echo-key'
  | 'same-cursor' | 'endless-cursor' | 'bad-shape'
  /** A 400 whose message repeats the key from its 110th character on (a cut at 120 falls inside it). */
  | 'echo-key-late'
  /** A 200 whose body is `null`. */
  | 'null-body'
  /** A 200 whose headers come at once and whose body comes a byte every 50 ms, never ending. */
  | 'trickle'
  /** For `task`: a 200 saying the task is not published yet (Algolia's answer while it works). */
  | 'notPublished';

export interface FaultRule {
  step: Step;
  fault: Fault;
  /** Only requests on an index whose name matches (default: any). */
  index?: RegExp;
  /** How many matching requests fail (default: all). */
  times?: number;
  /** Skip this many matching requests first (default 0). */
  after?: number;
}

/** Holds matching requests before they are applied, so a test can force an interleaving of runs. */
export interface GateRule {
  step: Step;
  /** Only requests on an index whose name matches (default: any). */
  index?: RegExp;
  /** Let this many matching requests through first (default 0). */
  after?: number;
}

export interface Gate {
  /** Resolves with the held request once one arrives. */
  reached: Promise<LoggedRequest>;
  /** Lets the held request (and every later one) through. */
  release(): void;
}

interface FakeIndex {
  records: Map<string, Record<string, unknown>>;
  settings: Record<string, unknown>;
  synonyms: unknown[];
  rules: unknown[];
}

export interface LoggedRequest {
  method: string;
  path: string;
  step: Step;
  index?: string;
  status: number | 'timeout' | 'drop';
  body?: unknown;
}

export interface FakeAlgolia {
  url: string;
  appId: string;
  apiKey: string;
  indexes: Map<string, FakeIndex>;
  log: LoggedRequest[];
  faults: FaultRule[];
  /** Holds the first request matching `rule` (after `rule.after` others) until `release()`. */
  gate(rule: GateRule): Gate;
  /** Delay before each request is applied (default none): random delays make random interleavings. */
  latency?: () => number;
  /** JSON snapshots of the live index's records, one per distinct state it had. */
  history(indexName: string): Record<string, Record<string, unknown>>[];
  records(indexName: string): Record<string, unknown>[];
  /** An index's synonyms, in the order they were saved. */
  synonyms(indexName: string): Record<string, unknown>[];
  /** Creates an index; `at` sets its creation and update times (default now). */
  seed(indexName: string, records: Record<string, unknown>[], settings?: Record<string, unknown>, at?: Date, synonyms?: Record<string, unknown>[]): void;
  /** Names of indexes that exist now. */
  names(): string[];
  close(): Promise<void>;
}

function snapshot(index: FakeIndex | undefined): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  if (!index) return out;
  for (const [id, record] of [...index.records].sort(([a], [b]) => (a < b ? -1 : 1))) out[id] = structuredClone(record);
  return out;
}

function stepOf(method: string, parts: string[], body: Record<string, unknown> | undefined): Step {
  // parts: ['1', 'indexes', name, ...rest]
  const rest = parts.slice(3);
  if (parts[2] === '*' && rest[0] === 'queries') return 'queries';
  if (rest.length === 0 && method === 'DELETE') return 'deleteIndex';
  if (rest[0] === 'settings') return method === 'GET' ? 'getSettings' : 'setSettings';
  if (rest[0] === 'operation') return body?.operation === 'move' ? 'move' : 'copy';
  if (rest[0] === 'batch') return 'batch';
  if (rest[0] === 'task') return 'task';
  if (rest[0] === 'browse') return 'browse';
  if (rest[0] === 'synonyms') return rest[1] === 'search' ? 'searchSynonyms' : rest[1] === 'batch' ? 'saveSynonyms' : rest[1] === 'clear' ? 'clearSynonyms' : 'other';
  if (parts.length === 2 && method === 'GET') return 'listIndices';
  if (rest.length === 1 && method === 'GET') return 'getObject';
  return 'other';
}

export async function startFakeAlgolia(options: {appId?: string; apiKey?: string} = {}): Promise<FakeAlgolia> {
  const appId = options.appId ?? 'FAKEAPP';
  const apiKey = options.apiKey ?? 'fake-admin-key-0123456789';
  const indexes = new Map<string, FakeIndex>();
  const histories = new Map<string, Record<string, Record<string, unknown>>[]>();
  const log: LoggedRequest[] = [];
  const faults: FaultRule[] = [];
  const matched = new Map<FaultRule, number>();
  const sockets = new Set<Socket>();
  let taskCounter = 1000;
  const gates: {rule: GateRule; seen: number; gate: Gate; open: Promise<void>; hit: (entry: LoggedRequest) => void; used: boolean}[] = [];
  /** Times each index was created or last written, for listIndices. */
  const created = new Map<string, string>();
  const updated = new Map<string, string>();
  const stamp = (name: string): void => {
    const now = new Date().toISOString();
    if (!created.has(name)) created.set(name, now);
    updated.set(name, now);
  };
  const gateFor = (step: Step, index: string | undefined) => {
    for (const g of gates) {
      if (g.used || g.rule.step !== step) continue;
      if (g.rule.index && !(index && g.rule.index.test(index))) continue;
      g.seen += 1;
      if (g.seen <= (g.rule.after ?? 0)) continue;
      g.used = true;
      return g;
    }
    return undefined;
  };

  const record = (name: string): void => {
    const states = histories.get(name) ?? [];
    const now = snapshot(indexes.get(name));
    if (JSON.stringify(states.at(-1)) !== JSON.stringify(now)) states.push(now);
    histories.set(name, states);
  };
  const touched = (): void => {
    for (const name of new Set([...indexes.keys(), ...histories.keys()])) if (histories.has(name)) record(name);
  };

  const pickFault = (step: Step, index: string | undefined): FaultRule | undefined => {
    for (const rule of faults) {
      if (rule.step !== step) continue;
      if (rule.index && !(index && rule.index.test(index))) continue;
      const count = (matched.get(rule) ?? 0) + 1;
      matched.set(rule, count);
      if (count <= (rule.after ?? 0)) continue;
      if (rule.times !== undefined && count - (rule.after ?? 0) > rule.times) continue;
      return rule;
    }
    return undefined;
  };

  const apply = (method: string, parts: string[], step: Step, body: Record<string, unknown> | undefined, url: URL): [number, unknown] => {
    const name = parts[2] ?? '';
    const index = indexes.get(name);
    const task = (): {taskID: number; updatedAt: string} => ({taskID: ++taskCounter, updatedAt: new Date().toISOString()});
    const notFound: [number, unknown] = [404, {message: 'Index does not exist', status: 404}];
    switch (step) {
      case 'getSettings':
        return index ? [200, {...index.settings}] : notFound;
      case 'setSettings': {
        const target = index ?? {records: new Map(), settings: {}, synonyms: [], rules: []};
        target.settings = {...target.settings, ...body};
        indexes.set(name, target);
        return [200, task()];
      }
      case 'copy':
      case 'move': {
        if (!index) return notFound;
        const destination = String(body?.destination ?? '');
        const scope = body?.scope as string[] | undefined;
        if (step === 'copy' && scope) {
          const target = indexes.get(destination) ?? {records: new Map(), settings: {}, synonyms: [], rules: []};
          if (scope.includes('settings')) target.settings = structuredClone(index.settings);
          if (scope.includes('synonyms')) target.synonyms = structuredClone(index.synonyms);
          if (scope.includes('rules')) target.rules = structuredClone(index.rules);
          indexes.set(destination, target);
        } else {
          indexes.set(destination, structuredClone(index));
          if (step === 'move') indexes.delete(name);
        }
        return [200, task()];
      }
      case 'batch': {
        const target = index ?? {records: new Map(), settings: {}, synonyms: [], rules: []};
        const objectIDs: string[] = [];
        for (const op of (body?.requests ?? []) as {action: string; body: Record<string, unknown>}[]) {
          const id = String(op.body.objectID);
          objectIDs.push(id);
          if (op.action === 'addObject' || op.action === 'updateObject') target.records.set(id, structuredClone(op.body));
          else if (op.action === 'deleteObject') target.records.delete(id);
          else return [400, {message: `unsupported action ${op.action}`, status: 400}];
        }
        indexes.set(name, target);
        return [200, {...task(), objectIDs}];
      }
      case 'task':
        return [200, {status: 'published'}];
      case 'getObject': {
        const found = index?.records.get(parts[3] ?? '');
        return found ? [200, found] : [404, {message: 'ObjectID does not exist', status: 404}];
      }
      case 'browse': {
        if (!index) return notFound;
        const hitsPerPage = Number(body?.hitsPerPage ?? 1000);
        const start = body?.cursor ? Number(Buffer.from(String(body.cursor), 'base64').toString()) : 0;
        const all = [...index.records.values()];
        const retrieve = (body?.attributesToRetrieve ?? index.settings.attributesToRetrieve ?? ['*']) as string[];
        const hits = all.slice(start, start + hitsPerPage).map((r) => {
          if (retrieve.includes('*')) return {...r, _highlightResult: {}};
          const out: Record<string, unknown> = {objectID: r.objectID};
          for (const key of retrieve) if (key in r) out[key] = r[key];
          return out;
        });
        const next = start + hitsPerPage;
        return [200, {hits, nbHits: all.length, page: 0, nbPages: 1, hitsPerPage, processingTimeMS: 1, query: '', params: '', ...(next < all.length ? {cursor: Buffer.from(String(next)).toString('base64')} : {})}];
      }
      case 'searchSynonyms': {
        if (!index) return notFound;
        const hitsPerPage = Number(body?.hitsPerPage ?? 100);
        const page = Number(body?.page ?? 0);
        const all = index.synonyms as Record<string, unknown>[];
        // (Algolia answers with the type in lower case)
        const hits = all.slice(page * hitsPerPage, (page + 1) * hitsPerPage).map((s) => ({...s, type: String(s.type).toLowerCase(), _highlightResult: {}}));
        return [200, {hits, nbHits: all.length}];
      }
      case 'saveSynonyms': {
        const target = index ?? {records: new Map(), settings: {}, synonyms: [], rules: []};
        const list = (Array.isArray(body) ? body : []) as Record<string, unknown>[];
        if (list.some((s) => typeof s.objectID !== 'string' || !Array.isArray(s.synonyms))) return [400, {message: 'invalid synonym', status: 400}];
        const kept = url.searchParams.get('replaceExistingSynonyms') === 'true' ? [] : (target.synonyms as Record<string, unknown>[]);
        const ids = new Set(list.map((s) => s.objectID));
        target.synonyms = [...kept.filter((s) => !ids.has(s.objectID)), ...structuredClone(list)];
        indexes.set(name, target);
        return [200, {...task(), id: 'synonyms'}];
      }
      case 'clearSynonyms': {
        if (!index) return notFound;
        index.synonyms = [];
        return [200, task()];
      }
      case 'deleteIndex':
        indexes.delete(name);
        return [200, {taskID: ++taskCounter, deletedAt: new Date().toISOString()}];
      case 'queries':
        return [200, {results: []}];
      case 'listIndices': {
        const names = [...indexes.keys()].sort();
        const hitsPerPage = Number(url.searchParams.get('hitsPerPage') ?? 100);
        const page = Number(url.searchParams.get('page') ?? 0);
        const items = names.slice(page * hitsPerPage, (page + 1) * hitsPerPage).map((n) => ({
          name: n,
          createdAt: created.get(n) ?? new Date(0).toISOString(),
          updatedAt: updated.get(n) ?? new Date(0).toISOString(),
          entries: indexes.get(n)?.records.size ?? 0,
          dataSize: 0,
          fileSize: 0,
          lastBuildTimeS: 0,
          numberOfPendingTasks: 0,
          pendingTask: false,
        }));
        return [200, {items, nbPages: Math.max(1, Math.ceil(names.length / hitsPerPage))}];
      }
      default:
        return [404, {message: `no route ${method} ${url.pathname}`, status: 404}];
    }
  };

  const writeSteps: Step[] = ['setSettings', 'copy', 'move', 'batch', 'saveSynonyms', 'clearSynonyms'];
  const applyAndStamp = (method: string, parts: string[], step: Step, body: Record<string, unknown> | undefined, url: URL): [number, unknown] => {
    const out = apply(method, parts, step, body, url);
    if (out[0] === 200 && writeSteps.includes(step)) {
      const target = step === 'copy' || step === 'move' ? String(body?.destination ?? '') : (parts[2] ?? '');
      if (step === 'move') {
        created.delete(target);
        created.set(target, created.get(parts[2] ?? '') ?? new Date().toISOString());
      }
      stamp(target);
    }
    if (out[0] === 200 && (step === 'deleteIndex' || step === 'move')) {
      created.delete(parts[2] ?? '');
      updated.delete(parts[2] ?? '');
    }
    return out;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      let body: Record<string, unknown> | undefined;
      try {
        body = raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : undefined;
      } catch {
        body = undefined;
      }
      const method = req.method ?? 'GET';
      const step = parts[0] === '1' && parts[1] === 'indexes' ? stepOf(method, parts, body) : 'other';
      const indexName = parts[2];
      const entry: LoggedRequest = {method, path: url.pathname, step, ...(indexName ? {index: indexName} : {}), status: 200, ...(body ? {body} : {})};
      log.push(entry);
      const send = (status: number, payload: unknown): void => {
        entry.status = status;
        res.writeHead(status, {'content-type': 'application/json; charset=utf-8'}).end(JSON.stringify(payload));
      };
      if (req.headers['x-algolia-application-id'] !== appId || req.headers['x-algolia-api-key'] !== apiKey) {
        send(403, {message: 'Invalid Application-ID or API key', status: 403});
        return;
      }
      const gate = gateFor(step, indexName);
      if (gate) {
        gate.hit(entry);
        await gate.open;
      }
      const delay = fake.latency?.() ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const rule = pickFault(step, indexName);
      if (rule) {
        if (rule.fault === 'timeout') {
          entry.status = 'timeout';
          return; // never answer; the client gives up
        }
        if (rule.fault === 'drop') {
          entry.status = 'drop';
          req.socket.destroy();
          return;
        }
        if (rule.fault === 'drop-after') {
          // The operation happens, but its response is lost.
          applyAndStamp(method, parts, step, body, url);
          touched();
          entry.status = 'drop';
          req.socket.destroy();
          return;
        }
        if (rule.fault === 'same-cursor' || rule.fault === 'endless-cursor' || rule.fault === 'bad-shape') {
          if (rule.fault === 'bad-shape') {
            send(200, {hits: {objectID: 'x'}, cursor: 42});
            return;
          }
          const [status, payload] = applyAndStamp(method, parts, step, body, url);
          const cursor = rule.fault === 'same-cursor' ? 'c2FtZQ' : Buffer.from(String(Math.random())).toString('base64');
          send(status, {...(payload as Record<string, unknown>), ...(rule.fault === 'endless-cursor' ? {hits: []} : {}), cursor});
          return;
        }
        if (rule.fault === 'echo-key-late') {
          const lead = 'Bad request: the key given is not valid for this application, see the dashboard; key=';
          send(400, {message: `${lead.padEnd(110, '.')}${String(req.headers['x-algolia-api-key'])} (end)`, status: 400});
          return;
        }
        if (rule.fault === 'trickle') {
          entry.status = 'timeout';
          res.writeHead(200, {'content-type': 'application/json; charset=utf-8'});
          res.write('{"items":[');
          const timer = setInterval(() => res.write(' '), 50);
          res.on('close', () => clearInterval(timer));
          return;
        }
        if (rule.fault === 'notPublished') {
          send(200, {status: 'notPublished', pendingTask: true});
          return;
        }
        if (rule.fault === 'null-body') {
          send(200, null);
          return;
        }
        if (rule.fault === 'echo-key') {
          send(400, {message: `Bad request for key ${String(req.headers['x-algolia-api-key'])}`, status: 400});
          return;
        }
        const messages: Record<number, string> = {403: 'Invalid Application-ID or API key', 429: 'Too many requests', 400: 'Bad request'};
        send(rule.fault, {message: messages[rule.fault] ?? 'Internal error', status: rule.fault});
        return;
      }
      const [status, payload] = applyAndStamp(method, parts, step, body, url);
      touched();
      send(status, payload);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;

  const fake: FakeAlgolia = {
    url: `http://127.0.0.1:${port}`,
    appId,
    apiKey,
    indexes,
    log,
    faults,
    gate(rule) {
      let hit!: (entry: LoggedRequest) => void;
      let release!: () => void;
      const reached = new Promise<LoggedRequest>((resolve) => (hit = resolve));
      const open = new Promise<void>((resolve) => (release = resolve));
      const gate: Gate = {reached, release};
      gates.push({rule, seen: 0, gate, open, hit, used: false});
      return gate;
    },
    history: (name) => {
      if (!histories.has(name)) record(name);
      return histories.get(name) ?? [];
    },
    records: (name) => [...(indexes.get(name)?.records.values() ?? [])],
    synonyms: (name) => structuredClone((indexes.get(name)?.synonyms ?? []) as Record<string, unknown>[]),
    seed(name, records, settings = {}, at?: Date, synonyms: Record<string, unknown>[] = []) {
      const when = (at ?? new Date()).toISOString();
      created.set(name, when);
      updated.set(name, when);
      indexes.set(name, {records: new Map(records.map((r) => [String(r.objectID), structuredClone(r)])), settings: {...settings}, synonyms: structuredClone(synonyms), rules: []});
      histories.set(name, []);
      record(name);
    },
    names: () => [...indexes.keys()].sort(),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        for (const g of gates) g.gate.release();
        server.close(() => resolve());
      }),
  };
  return fake;
}

/** publishToAlgolia's options for this server: its app, key and host, short timeouts and retry delays. */
export function publishOptionsFor(fake: FakeAlgolia, indexName: string, extra: Partial<PublishOptions> = {}): PublishOptions {
  const url = new URL(fake.url);
  return {
    appId: fake.appId,
    apiKey: fake.apiKey,
    indexName,
    hosts: [{url: url.hostname, port: Number(url.port), protocol: 'http', accept: 'readWrite'}],
    timeoutMs: 400,
    retryDelayMs: 5,
    attempts: 3,
    ...extra,
  };
}
