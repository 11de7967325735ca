/**
 * How every browser this repository starts is launched: Debian's Chromium (never a downloaded
 * browser; CHROME_PATH points elsewhere, for example on GitHub's runners) with these flags. Used by
 * playwright.config.ts, scripts/search-eval.ts and the benchmarks (workspace docs-bench, in
 * indexer/bench), which import it as `site/chrome`.
 * Plain CommonJS so that both the site's CommonJS TypeScript and the benchmarks' ES modules import it.
 */
exports.CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
exports.CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
