/**
 * A static server for the production build with gzip, as a real host would answer: clean URLs
 * (/docs/introduction → docs/introduction.html), the 404 page for unknown paths, long caching
 * for hashed assets. Only for benchmarks: the tests use `docusaurus serve`.
 */
import {createServer, type Server} from 'node:http';
import {readFile, stat} from 'node:fs/promises';
import path from 'node:path';
import {gzipSync} from 'node:zlib';
import type {AddressInfo} from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.xml', '.txt']);

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function resolveFile(root: string, pathname: string): Promise<string | undefined> {
  const clean = path.normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
  const base = path.join(root, clean);
  if (!base.startsWith(root)) return undefined;
  const trimmed = base.replace(/[/\\]$/, '');
  for (const candidate of [base, `${trimmed}.html`, path.join(trimmed, 'index.html')]) {
    if (await isFile(candidate)) return candidate;
  }
  return undefined;
}

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The port of the next server: with E2E_PORT set (a port range of one's own, as the browser tests
 * use), E2E_PORT + 80 onwards, one each; otherwise any free port.
 */
let served = 0;
function nextPort(): number {
  const base = Number(process.env.E2E_PORT);
  return Number.isInteger(base) && base > 0 ? base + 80 + (served++ % 20) : 0;
}

export async function serveBuild(root: string, port = nextPort()): Promise<StaticServer> {
  const absRoot = path.resolve(root);
  const cache = new Map<string, {raw: Buffer; gz?: Buffer}>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let file = await resolveFile(absRoot, url.pathname);
      let status = 200;
      if (!file) {
        file = path.join(absRoot, '404.html');
        status = 404;
      }
      const ext = path.extname(file);
      let entry = cache.get(file);
      if (!entry) {
        const raw = await readFile(file);
        entry = {raw, gz: COMPRESSIBLE.has(ext) ? gzipSync(raw, {level: 9}) : undefined};
        cache.set(file, entry);
      }
      const gzip = entry.gz && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      res.writeHead(status, {
        'Content-Type': TYPES[ext] ?? 'application/octet-stream',
        'Cache-Control': url.pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        Vary: 'Accept-Encoding',
        ...(gzip ? {'Content-Encoding': 'gzip'} : {}),
      });
      res.end(gzip ? entry.gz : entry.raw);
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const {port: actual} = server.address() as AddressInfo;
  return {
    url: `http://localhost:${actual}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
