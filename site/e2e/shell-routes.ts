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
 * Resolves once React has hydrated the server-rendered page. The server renders
 * `data-has-hydrated="false"`; Docusaurus sets it to "true" after hydration.
 */
export async function hydrated(page: import('@playwright/test').Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.getAttribute('data-has-hydrated') === 'true');
}

/**
 * How many elements under `root` matching `selector` React hydrated or rendered: React keys every
 * such element with a `__reactFiber$…` property.
 */
export function walkedByReact(root: Locator, selector: string): Promise<number> {
  return root.evaluate(
    (element, query) =>
      Array.from(element.querySelectorAll(query)).filter((el) => Object.keys(el).some((key) => key.startsWith('__reactFiber$')))
        .length,
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
