/**
 * Runs the code examples of the v2 pages against a local mock device that presents a certificate
 * named like a real one (appliance/p1dongle/5c2fafaabbcc) and signed by a throw-away CA. Shows that
 * the pairing example, the WebSocket example and the curl pinning recipe work, and that each of
 * them refuses a device whose certificate carries a different name.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, spawnSync, execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import https from 'node:https';
import type {AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {WebSocketServer} from 'ws';
import {codeBlocks, docPages} from '../api/tooling/markdown';

const SITE = path.resolve(__dirname, '..');
const NAME = 'appliance/p1dongle/5c2fafaabbcc';
const TOKEN = '8B41E7C0D2F3A9561E0C4B7D2A95F3E1';
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const hasCurl = spawnSync('curl', ['--version']).status === 0;

const pages = docPages();
const block = (id: string, match: (value: string) => boolean) => {
  const found = codeBlocks(pages.find((p) => p.id === id)!.source).find((b) => match(b.value));
  assert.ok(found, `no matching code block on ${id}`);
  return found.value;
};

let dir = '';
let server: https.Server | undefined;
let port = 0;
let postsBeforeSuccess = 0;

before(() => {
  if (!hasOpenssl) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'hw-examples-'));
  const run = (args: string[]) => execFileSync('openssl', args, {cwd: dir, stdio: 'pipe'});
  run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/O=Test/CN=Test Appliance CA']);
  run(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'dev.key', '-out', 'dev.csr', '-subj', `/CN=${NAME.replace(/\//g, '\\/')}`]);
  run(['x509', '-req', '-in', 'dev.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'dev.pem', '-days', '2']);
  server = https.createServer({cert: readFileSync(path.join(dir, 'dev.pem')), key: readFileSync(path.join(dir, 'dev.key'))}, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.setHeader('Content-Type', 'application/json');
      if (req.method === 'POST' && req.url === '/api/user') {
        // The button is "pressed" after two attempts, as a person would do while the app polls.
        if (postsBeforeSuccess-- > 0) {
          res.statusCode = 403;
          res.end(JSON.stringify({error: 'user:creation-not-enabled'}));
          return;
        }
        res.end(JSON.stringify({name: JSON.parse(body).name, token: TOKEN}));
        return;
      }
      res.end(JSON.stringify({product_type: 'HWE-P1'}));
    });
  });
  // The WebSocket side of the mock device.
  new WebSocketServer({server, path: '/api/ws'}).on('connection', (socket) => {
    let authorized = false;
    socket.send(JSON.stringify({type: 'authorization_requested', data: {api_version: '2.0.0'}}));
    socket.on('message', (raw) => {
      const m = JSON.parse(raw.toString()) as {type: string; data?: unknown};
      if (m.type === 'authorization' && m.data === TOKEN) {
        authorized = true;
        socket.send(JSON.stringify({type: 'authorized'}));
      } else if (authorized && m.type === 'subscribe' && m.data === 'measurement') {
        for (const w of [120, 121]) socket.send(JSON.stringify({type: 'measurement', data: {power_w: w}}));
        socket.close();
      }
    });
  });
  return new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => {
    port = (server!.address() as AddressInfo).port;
    resolve();
  }));
});

after(() => {
  server?.close();
  if (dir) rmSync(dir, {recursive: true, force: true});
});

/**
 * Runs a command without blocking the event loop, which serves the mock device in this process.
 * The test waits for the command to end; the 60 s limit only ends an example that hangs (tsx
 * alone can take 20 s to start on a busy 2-core machine).
 */
function runAsync(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{out: string; err: string}> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {cwd: SITE, env, timeout: 60_000});
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', () => resolve({out, err}));
  });
}

/** Writes an example, with host, port and CA file swapped for the mock's, next to the site's modules and runs it. */
async function runTs(code: string, name: string): Promise<{out: string; err: string}> {
  const file = path.join(SITE, 'test', `.example-${name}-${process.pid}.ts`);
  writeFileSync(file, code);
  try {
    return await runAsync(process.execPath, ['--import', 'tsx', file], {...process.env, HW_TOKEN: TOKEN});
  } finally {
    rmSync(file, {force: true});
  }
}

test('the TypeScript pairing example polls through 403 and returns the token, and refuses a wrong certificate name', {skip: !hasOpenssl && 'openssl is not installed'}, async () => {
  const source = block('v2/authorization', (v) => v.includes('export async function pair('))
    .replace("readFileSync('homewizard-ca-cert.pem')", `readFileSync(${JSON.stringify(path.join(dir, 'ca.pem'))})`)
    .replace('port: 443,', `port: ${port},`);
  const call = (name: string) => `\npair('127.0.0.1', '${name}', 'local/my-app', 8000).then((t) => console.log('token', t), (e) => console.log('error', e.message));\n`;
  postsBeforeSuccess = 2;
  assert.equal((await runTs(source + call(NAME), 'pair')).out.trim(), `token ${TOKEN}`);
  postsBeforeSuccess = 0;
  assert.match((await runTs(source + call('appliance/p1dongle/000000000000'), 'pair-wrong')).out, /^error .*does not match certificate/);
});

// ws is a devDependency of the site, so the example always runs where openssl is installed.
test('the TypeScript WebSocket example authorizes, subscribes and prints the pushed power, and refuses a wrong name', {skip: !hasOpenssl && 'openssl is not installed'}, async () => {
  const source = block('v2/websocket', (v) => v.includes("from 'ws'"))
    .replace("const ip = '192.0.2.10';", `const ip = '127.0.0.1:${port}';`)
    .replace("readFileSync('homewizard-ca-cert.pem')", `readFileSync(${JSON.stringify(path.join(dir, 'ca.pem'))})`);
  const good = await runTs(source, 'ws');
  assert.match(good.out, /power 120 W\npower 121 W\nconnection closed/);
  const bad = await runTs(source.replace(NAME, 'appliance/p1dongle/000000000000'), 'ws-wrong');
  assert.doesNotMatch(bad.out, /power/);
  assert.match(bad.err + bad.out, /does not match certificate/);
});

test('the curl pinning recipe verifies the certificate, and curl with the pin reaches the device', {skip: (!hasOpenssl || !hasCurl) && 'openssl or curl is not installed'}, async () => {
  const recipe = block('v2/authorization', (v) => v.includes('HW_PIN="sha256//$(openssl s_client')).replace(/:443"/, `:${port}"`);
  const script = (name: string) =>
    `cd ${JSON.stringify(dir)}; cp ca.pem homewizard-ca-cert.pem; HW_IP=127.0.0.1\n${recipe.replace(NAME, name)}\n` +
    `curl --silent --show-error --insecure --pinnedpubkey "$HW_PIN" "https://$HW_IP:${port}/api" && echo " reached"`;
  const good = await runAsync('bash', ['-c', script(NAME)]);
  assert.match(good.out, /^sha256\/\/[A-Za-z0-9+/]{43}=\n/);
  assert.match(good.out, /"product_type":"HWE-P1"\} reached/);
  const bad = await runAsync('bash', ['-c', script('appliance/p1dongle/000000000000')]);
  assert.match(bad.out, /certificate check failed/);
  assert.doesNotMatch(bad.out, /reached/);
  assert.match(bad.err, /public key does not match pinned public key/);
});
