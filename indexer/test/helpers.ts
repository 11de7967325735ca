import {spawn, type ChildProcess} from 'node:child_process';
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import {mkdir, readFile, stat, writeFile} from 'node:fs/promises';
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

/** A CLI process started in the background, for tests that signal it while it runs. */
export interface RunningCli {
  child: ChildProcess;
  result: Promise<{code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string}>;
}

/** Starts the CLI without the caller's ALGOLIA_* and DOCS_INDEXER_* variables, plus `env`. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, stdout: 'pipe' | number = 'pipe'): RunningCli {
  const clean: NodeJS.ProcessEnv = {...process.env};
  for (const key of Object.keys(clean)) if (key.startsWith('ALGOLIA_') || key.startsWith('DOCS_INDEXER_')) delete clean[key];
  const child = spawn(process.execPath, [bin, ...args], {env: {...clean, ...env}, stdio: ['ignore', stdout, 'pipe']});
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (err += d));
  const result = new Promise<{code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string}>((resolve) =>
    child.on('close', (code, signal) => resolve({code, signal, stdout: out, stderr: err})),
  );
  return {child, result};
}

/** Polls `condition` every 5 ms until it holds (a run reaching the phase a test signals it in); throws after 30 s. */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the run to reach its phase');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A build folder of `pages` pages of a few paragraphs each: a crawl of it with --concurrency 1 lasts long enough to signal it. */
export async function bigBuild(dir: string, pages: number): Promise<string> {
  const build = path.join(dir, 'build');
  await mkdir(path.join(build, 'docs'), {recursive: true});
  const page = (n: number): string =>
    `<!doctype html><html><head><title>Page ${n} | Site</title><link rel=canonical href="https://big.example/docs/p${n}"></head>` +
    `<body><main><h1>Page ${n}</h1>${'<p>Some words about the meter and its readings.</p>'.repeat(40)}</main></body></html>`;
  await writeFile(path.join(build, 'index.html'), page(0).replace('/docs/p0', '/'));
  for (let n = 1; n <= pages; n++) await writeFile(path.join(build, 'docs', `p${n}.html`), page(n));
  return build;
}
