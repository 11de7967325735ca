/** Debian's Chromium, or the browser CHROME_PATH names. */
export declare const CHROME_PATH: string;
/** The launch flags of every browser the tests and benchmarks start. */
export declare const CHROME_ARGS: string[];
/** The features chrome.cjs switches off besides Playwright's: the address bar's popup. */
export declare const OMNIBOX_POPUP_FEATURES: string[];
/** The browser tests' launch flags: CHROME_ARGS, V8 without its optimizing compilers, no site isolation. */
export declare const TEST_ARGS: string[];
