import {spawn} from 'node:child_process';
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import {readFile, stat} from 'node:fs/promises';
import path from 'node:path';
import type {AddressInfo} from 'node:net';
import {fileURLToPath} from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const fixture = (...parts: string[]): string => path.join(here, 'fixtures', ...parts);
export const workspaceRoot = path.resolve(here, '..');
export const repoRoot = path.resolve(here, '..', '..');
export const siteBuild = path.join(repoRoot, 'site', 'build');
export const bin = path.join(workspaceRoot, 'bin', 'docs-indexer.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the real bin, as a user or CI would run it. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, cwd = repoRoot): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const cleanEnv: NodeJS.ProcessEnv = {...process.env};
    for (const key of Object.keys(cleanEnv)) if (key.startsWith('ALGOLIA_') || key.startsWith('DOCS_INDEXER_')) delete cleanEnv[key];
    for (const [key, value] of Object.entries(env)) {
      if (value === undefined) delete cleanEnv[key];
      else cleanEnv[key] = value;
    }
    const child = spawn(process.execPath, [bin, ...args], {cwd, env: cleanEnv});
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({code, stdout, stderr}));
  });
}

export async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

export interface StaticSite {
  url: string;
  requests: string[];
  /** The Authorization header of each request (undefined when none). */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** Serves a build folder like GitHub Pages does: `/docs/foo` → `docs/foo.html`. */
export async function serveFolder(
  folder: string,
  options: {
    hideSitemap?: boolean;
    fail?: (pathname: string, count: number) => number | 'drop' | undefined;
    /** A Location to answer 302 with. */
    redirect?: (pathname: string) => string | undefined;
  } = {},
): Promise<StaticSite> {
  const requests: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const counts = new Map<string, number>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      requests.push(pathname);
      authorizations.push(req.headers.authorization);
      const location = options.redirect?.(pathname);
      if (location) {
        res.writeHead(302, {location}).end();
        return;
      }
      const count = (counts.get(pathname) ?? 0) + 1;
      counts.set(pathname, count);
      const fault = options.fail?.(pathname, count);
      if (fault === 'drop') {
        req.socket.destroy();
        return;
      }
      if (typeof fault === 'number') {
        res.writeHead(fault).end('fault');
        return;
      }
      if (options.hideSitemap && pathname === '/sitemap.xml') {
        res.writeHead(404).end('not found');
        return;
      }
      const candidates = pathname.endsWith('/')
        ? [`${pathname}index.html`]
        : [pathname, `${pathname}.html`, `${pathname}/index.html`];
      for (const candidate of candidates) {
        try {
          const body = await readFile(path.join(folder, candidate));
          const type = candidate.endsWith('.xml') ? 'application/xml' : candidate.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream';
          res.writeHead(200, {'content-type': type}).end(body);
          return;
        } catch {
          // next candidate
        }
      }
      res.writeHead(404, {'content-type': 'text/html'}).end('<h1>Page Not Found</h1>');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
