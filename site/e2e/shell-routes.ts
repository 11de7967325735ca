import {readdirSync} from 'node:fs';
import path from 'node:path';
import {expect, type Locator, type Page, type Route} from '@playwright/test';

/**
 * The routes of the spec's table (site-spec.md, section 2), nothing more. Shared by the shell,
 * accessibility and best-practice tests.
 */
export const GENERAL_PAGES = ['introduction', 'getting-started', 'discovery', 'practical-questions', 'versioning', 'changelog'];
export const V1_PAGES = ['api', 'error-handling', 'identify', 'measurement', 'state', 'system', 'telegram'];
export const V2_PAGES = [
  'authorization',
  'batteries',
  'device_information',
  'error-handling',
  'measurement',
  'system',
  'telegram',
  'websocket',
];

export const SPEC_ROUTES: readonly string[] = [
  '/',
  '/search',
  '/docs',
  '/docs/category/api-v1',
  '/docs/category/api-v2',
  ...GENERAL_PAGES.map((p) => `/docs/${p}`),
  ...V1_PAGES.map((p) => `/docs/v1/${p}`),
  ...V2_PAGES.map((p) => `/docs/v2/${p}`),
];

/** Every page the build in `dir` writes, as a route (docs/index.html is the /docs/ copy for static hosts; 404.html is left out). */
export function builtRoutes(dir = path.resolve(__dirname, '../build'), prefix = ''): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    if (entry.isDirectory()) {
      return entry.name === 'assets' ? [] : builtRoutes(path.join(dir, entry.name), `${prefix}/${entry.name}`);
    }
    if (!entry.name.endsWith('.html') || entry.name === '404.html') return [];
    const name = entry.name.replace(/\.html$/, '');
    return [name === 'index' ? prefix || '/' : `${prefix}/${name}`];
  });
}

/** /docs only forwards to the introduction and is marked noindex, so the sitemap leaves it out. */
export const NOINDEX_ROUTES: readonly string[] = ['/docs'];

/** Chromium's NetworkInformation, replaced before any page script runs. */
export function connectionInitScript(connection: {effectiveType: string; saveData: boolean}): string {
  return `Object.defineProperty(Navigator.prototype, 'connection', {
    configurable: true,
    get: () => ({...${JSON.stringify(connection)}, addEventListener() {}, removeEventListener() {}}),
  });`;
}

/**
 * Resolves once the app has hydrated the server-rendered page: the server renders
 * `data-has-hydrated="false"`, Docusaurus sets it to "true" after React's hydration has committed.
 */
export async function hydrated(page: import('@playwright/test').Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.getAttribute('data-has-hydrated') === 'true');
}

/**
 * Marks, from the start of the page, every element React has hydrated or rendered. React calls the
 * React DevTools global hook (`__REACT_DEVTOOLS_GLOBAL_HOOK__`, the extension's protocol, which
 * production react-dom calls too) with each committed root: the script walks the committed fiber
 * tree and marks the element of each host fiber (tag 5, its `stateNode`) with `__walked`. Markup
 * React adopted without a fiber (`dangerouslySetInnerHTML`, src/server-article) stays unmarked.
 * Call it before the page loads.
 */
export async function traceRendererWalk(page: Page): Promise<void> {
  await page.addInitScript(WALK_TRACE);
}

/** The init script of traceRendererWalk, for tests that count inside their own init scripts. */
export const WALK_TRACE = `(() => {
  const HOST_COMPONENT = 5;
  const mark = (fiber) => {
    for (let f = fiber; f; f = f.sibling) {
      if (f.tag === HOST_COMPONENT && f.stateNode && f.stateNode.nodeType === 1) f.stateNode.__walked = true;
      if (f.child) mark(f.child);
    }
  };
  const previous = window.__REACT_DEVTOOLS_GLOBAL_HOOK__;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    ...previous,
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) {
      window.__walkTrace = renderer.reconcilerVersion || renderer.version || 'react';
      const id = (previous && previous.inject) ? previous.inject(renderer) : this.renderers.size + 1;
      this.renderers.set(id, renderer);
      return id;
    },
    onCommitFiberRoot(id, root, priority, didError) {
      mark(root.current.child);
      if (previous && previous.onCommitFiberRoot) previous.onCommitFiberRoot(id, root, priority, didError);
    },
    onPostCommitFiberRoot(id, root) {
      if (previous && previous.onPostCommitFiberRoot) previous.onPostCommitFiberRoot(id, root);
    },
    onCommitFiberUnmount(id, fiber) {
      if (previous && previous.onCommitFiberUnmount) previous.onCommitFiberUnmount(id, fiber);
    },
    checkDCE() {},
  };
})();`;

/**
 * How many elements under `root` matching `selector` React hydrated or rendered (see
 * traceRendererWalk, which must have run first: this throws when React never attached to the trace).
 */
export async function walkedByRenderer(root: Locator, selector: string): Promise<number> {
  const attached = await root.page().evaluate(() => (window as Window & {__walkTrace?: string}).__walkTrace);
  if (!attached) throw new Error('the renderer walk trace is not attached: call traceRendererWalk before the page loads');
  return root.evaluate(
    (element, query) => Array.from(element.querySelectorAll(query)).filter((el) => (el as Element & {__walked?: boolean}).__walked).length,
    selector,
  );
}

/** The hosts a page in local mode may talk to: the server the tests run against. */
export const BASE_HOSTS: readonly string[] = ['localhost', '127.0.0.1'];

/** Holds main.js back; the returned function lets it through. */
export async function holdApp(page: Page): Promise<() => Promise<void>> {
  let held: Route | undefined;
  let release = false;
  await page.route(/\/assets\/js\/main\.[0-9a-f]+\.js$/, async (route) => {
    if (release) await route.continue();
    else held = route;
  });
  return async () => {
    release = true;
    await expect.poll(() => held !== undefined, {message: 'main.js was requested'}).toBe(true);
    await held!.continue();
  };
}
