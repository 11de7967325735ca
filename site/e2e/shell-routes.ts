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
 * Resolves once the app has hydrated the whole server-rendered page. The server renders
 * `data-has-hydrated="false"`; Docusaurus sets it to "true" after the first commit, and parts
 * hydrated in tasks of their own after that (src/deferred-hydration) are counted in
 * `data-hydrating-parts` until the last is done.
 */
export async function hydrated(page: import('@playwright/test').Page): Promise<void> {
  await page.waitForFunction(
    () => document.documentElement.getAttribute('data-has-hydrated') === 'true' && !document.documentElement.hasAttribute('data-hydrating-parts'),
  );
}

/**
 * Marks, from the start of the page, every element the app's renderer hydrates or renders. The site
 * runs Preact in the browser (plugins/framework-modules.ts), whose elements keep no link to their
 * virtual nodes; the Preact DevTools protocol (preact/devtools, which the site loads) hands this
 * script Preact's `options` before the first render, and its `diffed` hook marks each node's
 * element (`__e`, Preact 10's mangled name for a vnode's DOM node) with `__walked`. Call it before
 * the page loads.
 */
export async function traceRendererWalk(page: Page): Promise<void> {
  await page.addInitScript(WALK_TRACE);
}

/** The init script of traceRendererWalk, for tests that count inside their own init scripts. */
export const WALK_TRACE = `window.__PREACT_DEVTOOLS__ = {
  attachPreact(version, options) {
    window.__walkTrace = version;
    const next = options.diffed;
    options.diffed = (vnode) => {
      const dom = vnode.__e;
      if (dom && dom.nodeType === 1) dom.__walked = true;
      if (next) next(vnode);
    };
  },
};`;

/**
 * How many elements under `root` matching `selector` the renderer hydrated or rendered (see
 * traceRendererWalk, which must have run first: this throws when the trace never attached).
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
