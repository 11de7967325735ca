/**
 * One visit of a page that every per-page check reads: hydration-report.ts's findings (a React
 * hydration error, a recoverable error, an attribute that differs from what React rendered), any
 * console error or uncaught exception, and what the page requested. every-page.spec.ts loads
 * each page once and judges that one visit for every check that reads a page; hydration.spec.ts
 * judges its visits of the other colour modes and widths the same way.
 */
import type {Browser, BrowserContext, Page, Route} from '@playwright/test';
import {classify, HYDRATION_WATCH, type Finding, type Report} from './hydration-report';
import {BASE_HOSTS, hydrated} from './shell-routes';

/** A path with no page: the not-found page. */
export const NOT_FOUND = '/no-such-page';
/** What Chromium logs for the not-found page's own 404 response: expected there, nowhere else. */
const NOT_FOUND_RESPONSE = 'Failed to load resource: the server responded with a status of 404 (Not Found)';

export const WIDTHS = {desktop: {width: 1280, height: 800}, phone: {width: 390, height: 844}} as const;
export type Width = keyof typeof WIDTHS;
export type Mode = 'light' | 'dark';

export interface Visit {
  /** Hydration problems, console errors and uncaught exceptions, judged (hydration-report.ts). */
  findings: Finding[];
  /** Requests to a host other than the test server's. */
  foreignRequests: string[];
  /** Web fonts requested. */
  fonts: string[];
}

/** What a browser stores: cookies and each origin's localStorage. */
export type Stored = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * What the browser stores once a reader has chosen dark mode with the colour toggle: the navbar's
 * toggle clicked on a page at a desktop's width (on a phone it is in the menu). `baseURL` for a
 * worker's fixture, whose contexts do not get the tests' options.
 */
export async function darkChoice(browser: Browser, baseURL?: string): Promise<Stored> {
  const context = await browser.newContext({viewport: WIDTHS.desktop, ...(baseURL ? {baseURL} : {})});
  try {
    const page = await context.newPage();
    await page.goto('/docs/introduction');
    await hydrated(page);
    await page.getByRole('button', {name: /Switch between dark and light mode/}).click();
    await page.waitForFunction(() => document.documentElement.getAttribute('data-theme') === 'dark');
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/**
 * A context for a reader at `width` who chose `mode` (darkChoice), with HYDRATION_WATCH in every
 * page before the page's own scripts.
 */
export async function readerContext(browser: Browser, width: Width, mode: Mode): Promise<BrowserContext> {
  const context = await browser.newContext({viewport: WIDTHS[width], storageState: mode === 'dark' ? await darkChoice(browser) : undefined});
  await context.addInitScript(HYDRATION_WATCH);
  return context;
}

/**
 * Loads `route` in `page` (whose context has HYDRATION_WATCH), waits for hydration and the effects
 * after it, and returns what the page reported. With `toEnd`, scrolls to the end and waits for the
 * network to be idle first, so that content loaded on the way (images, diagrams) is counted too.
 * HYDRATION_MISMATCH=<route> serves that route's HTML with a text mismatch (textMismatch), so
 * that the checks can be seen failing on it.
 */
export async function visit(page: Page, route: string, options: {toEnd?: boolean} = {}): Promise<Visit> {
  const reports: Report[] = [];
  const seen: Visit = {findings: [], foreignRequests: [], fonts: []};
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (route === NOT_FOUND && message.text() === NOT_FOUND_RESPONSE && message.location().url.endsWith(NOT_FOUND)) return;
    reports.push({source: 'console', text: message.text()});
  });
  page.on('pageerror', (error) => reports.push({source: 'pageerror', text: `${error.name}: ${error.message}`}));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol) && !BASE_HOSTS.includes(url.hostname)) seen.foreignRequests.push(request.url());
    if (request.resourceType() === 'font') seen.fonts.push(request.url());
  });
  if (process.env.HYDRATION_MISMATCH === route) await serveChanged(page, route, textMismatch);
  await page.goto(route);
  await hydrated(page);
  // Effects after the hydration's commit, and any commit they cause: React runs them in tasks of
  // its own, and the browser calls an idle callback once no task is waiting. A page kept busy
  // (a background page of the context may get no idle period) is read after 5 s at the latest.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestIdleCallback(resolve, {timeout: 5000}))));
  if (options.toEnd) {
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForLoadState('networkidle');
  }
  const watched = await page.evaluate(() => {
    const w = window as Window & {__hydrationWatch?: boolean; __hydrationReports?: Report[]};
    return {attached: w.__hydrationWatch === true, reports: w.__hydrationReports ?? []};
  });
  // The attribute check must have seen React, or it would pass on anything.
  if (!watched.attached) reports.push({source: 'attribute', text: 'React never called the DevTools hook: the attribute check saw nothing'});
  reports.push(...watched.reports);
  seen.findings = classify(reports);
  return seen;
}

/** The navbar's title, the same on every page: the text the mismatch tests change. */
const NAVBAR_TITLE = '<b class="navbar__title text--truncate">HomeWizard Energy API</b>';

/** A text mismatch: the server's navbar title made to differ from the one the app renders. */
export const textMismatch = (html: string) => html.replace(NAVBAR_TITLE, NAVBAR_TITLE.replace('>HomeWizard', '>Server-side HomeWizard'));

/** Serves `route`'s HTML with `change` applied (the server's markup made to differ from the app's). */
export async function serveChanged(target: Page | BrowserContext, route: string, change: (html: string) => string): Promise<void> {
  await target.route(
    (url) => url.pathname === route,
    async (r: Route) => {
      const response = await r.fetch();
      const html = await response.text();
      const changed = change(html);
      if (changed === html) throw new Error(`the change found nothing to change in ${route}`);
      await r.fulfill({response, body: changed});
    },
  );
}
