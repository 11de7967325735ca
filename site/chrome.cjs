/**
 * How every browser this repository starts is launched: Debian's Chromium (never a downloaded
 * browser; CHROME_PATH points elsewhere, for example on GitHub's runners) with these flags. Used by
 * playwright.config.ts, scripts/search-eval.ts and the benchmarks (workspace docs-bench, in
 * indexer/bench), which import it as `site/chrome`.
 * Plain CommonJS so that both the site's CommonJS TypeScript and the benchmarks' ES modules import it.
 */
exports.CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * The features Playwright (playwright-core 1.65) switches off in every Chromium it launches, in its
 * own `--disable-features`. Chromium keeps only the last `--disable-features` of its command line,
 * so ours below must repeat them; e2e/browser-flags.spec.ts reads the browser's command line and
 * fails when Playwright's list holds a feature this one lacks (after an upgrade of Playwright).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 150 (Debian's, here) in headless mode still builds each window's address-bar popup, a
 * WebUI page with a renderer process of its own, and Playwright opens a window per page: about half
 * of the processor time a new page costs (~0.5 s → ~0.25 s here), for a popup no test ever opens.
 * e2e/browser-flags.spec.ts also fails if a Chromium upgrade renames these and the popup comes back.
 */
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

exports.OMNIBOX_POPUP_FEATURES = OMNIBOX_POPUP_FEATURES;
exports.CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`,
];

/**
 * The browser tests' flags: CHROME_ARGS, and two changes to how Chromium spends processor time
 * that no test can see. The benchmarks and the search eval launch with CHROME_ARGS: they measure
 * what readers' browsers do.
 * - V8 without its optimizing compilers (Maglev and TurboFan), which compile a page's hot
 *   functions again on background threads. A test's page lives a few seconds, so that work mostly
 *   goes unused, and on CI's two cores it takes processor time from the tests beside it: 35 of the
 *   site's tests took 176 instead of 196 processor-seconds (means of four runs of each,
 *   alternating). JavaScript means the same on every tier; only its speed differs, and no test
 *   asserts a speed.
 * - No site isolation: a page opened at about:blank keeps its renderer when it goes to the test
 *   server, instead of starting a second one for the new site (~0.2 processor-seconds a page). The
 *   tests' pages are one site (the test server) and frame no other, so the process model is all
 *   that changes: 60 of the site's tests took 72 instead of 83 processor-seconds (means of three
 *   runs of each, alternating). e2e/browser-flags.spec.ts fails if Chromium stops honouring it.
 */
exports.TEST_ARGS = [...exports.CHROME_ARGS, '--js-flags=--no-opt --no-maglev', '--disable-site-isolation-trials'];
