/**
 * The classifier of the browser tests' hydration reports (e2e/hydration-report.ts), on the texts
 * production React 19 and Docusaurus really give: each recorded from the built site in Chromium
 * through Playwright (a page whose server text was changed; React's own default, window.reportError).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {classify, HYDRATION_WATCH} from '../e2e/hydration-report';

/** Docusaurus's onRecoverableError (core's clientEntry) on a text mismatch, as Playwright's console message text. */
const DOCUSAURUS_418 =
  'Docusaurus React Root onRecoverableError: Error: Minified React error #418; visit https://react.dev/errors/418?args[]=text&args[]= for the full message or use the non-minified dev environment for full errors and additional helpful warnings.\n    at r2 (http://localhost:4400/assets/js/main.a10045e7.js:1:55973)\n    at MessagePort.N (http://localhost:4400/assets/js/main.a10045e7.js:1:266000) {componentStack: \n    at b (<anonymous>)}';
/** React's default onRecoverableError (window.reportError), as Playwright's pageerror. */
const REPORTED_418 =
  'Error: Minified React error #418; visit https://react.dev/errors/418?args[]=HTML&args[]= for the full message or use the non-minified dev environment for full errors and additional helpful warnings.';

test("Docusaurus's console report of production React's #418 is a hydration error", () => {
  const [finding] = classify([{source: 'console', text: DOCUSAURUS_418}]);
  assert.equal(finding!.hydration, true);
  assert.equal(finding!.code, 418);
  assert.match(finding!.summary, /^React #418: Hydration failed/);
});

test("React's own report through window.reportError is one too", () => {
  const [finding] = classify([{source: 'pageerror', text: REPORTED_418}]);
  assert.deepEqual([finding!.hydration, finding!.code], [true, 418]);
});

test("the other hydration codes of react-dom-client 19 and development React's words are recognised", () => {
  for (const code of [419, 422, 423, 424]) {
    assert.equal(classify([{source: 'console', text: `Error: Minified React error #${code}; visit https://react.dev/errors/${code}`}])[0]!.code, code);
  }
  const dev = classify([{source: 'console', text: "A tree hydrated but some attributes of the server rendered HTML didn't match the client properties."}]);
  assert.equal(dev[0]!.hydration, true);
});

test('an attribute report is a hydration mismatch; any other error is reported, not as one', () => {
  const [attribute, other, minified] = classify([
    {source: 'attribute', text: 'a.navbar__link href: the page has "/x", React rendered "/y"'},
    {source: 'console', text: 'Failed to load resource: net::ERR_FAILED'},
    {source: 'pageerror', text: 'Error: Minified React error #185; visit https://react.dev/errors/185'},
  ]);
  assert.equal(attribute!.hydration, true);
  assert.match(attribute!.summary, /^attribute mismatch: a\.navbar__link href/);
  assert.deepEqual([other!.hydration, other!.summary], [false, 'console: Failed to load resource: net::ERR_FAILED']);
  assert.deepEqual([minified!.hydration, minified!.code], [false, 185]);
});

test("the watch is a script that installs React's DevTools hook", () => {
  assert.doesNotThrow(() => new Function(HYDRATION_WATCH));
  const window: Record<string, unknown> = {};
  new Function('window', HYDRATION_WATCH)(window);
  const hook = window.__REACT_DEVTOOLS_GLOBAL_HOOK__ as {supportsFiber: boolean; inject: (r: object) => number};
  assert.equal(hook.supportsFiber, true);
  assert.equal(typeof hook.inject({}), 'number');
  assert.equal(window.__hydrationWatch, true);
});
