/**
 * What tells a hydration mismatch in the production build, and how the browser tests read it
 * (e2e/page-visit.ts, for hydration.spec.ts and every-page.spec.ts; the classifier is
 * unit-tested in test/hydration-report.test.ts). No Playwright here: the unit tests import it.
 *
 * Production React 19 reports a mismatch it cannot keep as a *recoverable error*: text or
 * elements that differ give "Minified React error #418" ("Hydration failed because the server
 * rendered text/HTML didn't match the client"), and it then renders the whole root again on the
 * client; #419, #422, #423 and #424 are the other hydration errors of react-dom-client 19. React
 * hands them to the root's onRecoverableError, which Docusaurus sets to a console.error of
 * "Docusaurus React Root onRecoverableError:" and the error (core's clientEntry); React's own
 * default, for roots without one, is window.reportError (an "error" event, an uncaught exception in
 * the console). Attributes that differ are not reported at all in production (only the development
 * build warns "A tree hydrated but some attributes of the server rendered HTML didn't match"), and
 * React leaves the server's attribute in place. So HYDRATION_WATCH also checks attributes itself:
 * through the React DevTools global hook, which production react-dom calls at each commit, it
 * compares each new host element's props with the attributes it has in the page.
 */

/** One thing the page reported. */
export interface Report {
  /** console: console.error; pageerror: an uncaught exception or window.reportError; attribute: HYDRATION_WATCH's own check. */
  source: 'console' | 'pageerror' | 'attribute';
  text: string;
}

/** A report judged: whether it is a hydration problem, and what to print. */
export interface Finding extends Report {
  hydration: boolean;
  /** React's error code, for a minified React error. */
  code?: number;
  summary: string;
}

/** react-dom-client 19's hydration errors (react.dev/errors/<code>). */
export const HYDRATION_ERROR_CODES: Readonly<Record<number, string>> = {
  418: "Hydration failed because the server rendered text or HTML didn't match the client",
  419: 'The server could not finish this Suspense boundary; it was rendered on the client',
  422: 'There was an error while hydrating; React recovered by rendering the root on the client',
  423: 'There was an error while hydrating this Suspense boundary; it was rendered on the client',
  424: 'A Suspense boundary received an update before it finished hydrating',
  425: 'Text content does not match server-rendered HTML (React 18)',
};

/** What development React and Docusaurus write for the same problems, unminified. */
const HYDRATION_WORDS = /hydrat|server rendered|did(?:n't| not) match|onRecoverableError/i;

/** Judges each report: any one fails the test; `hydration` says whether it is a mismatch. */
export function classify(reports: readonly Report[]): Finding[] {
  return reports.map((report) => {
    const code = /Minified React error #(\d+)|react\.dev\/errors\/(\d+)/.exec(report.text);
    const number = code ? Number(code[1] ?? code[2]) : undefined;
    if (number !== undefined && number in HYDRATION_ERROR_CODES) {
      return {...report, hydration: true, code: number, summary: `React #${number}: ${HYDRATION_ERROR_CODES[number]}`};
    }
    if (report.source === 'attribute') return {...report, hydration: true, summary: `attribute mismatch: ${report.text}`};
    if (HYDRATION_WORDS.test(report.text)) return {...report, hydration: true, code: number, summary: report.text.split('\n')[0]!};
    return {...report, hydration: false, code: number, summary: `${report.source}: ${report.text.split('\n')[0]}`};
  });
}

/**
 * Init script: from the start of the page, records into `window.__hydrationReports` the
 * `source: 'attribute'` reports (see the module's comment); the console and uncaught errors come
 * from Playwright's page events. Chains to any DevTools hook installed before it
 * (e2e/shell-routes.ts's WALK_TRACE).
 */
export const HYDRATION_WATCH = `(() => {
  const reports = [];
  window.__hydrationReports = reports;
  // Props React writes as attributes of the same name, or under another name.
  const RENAMED = {className: 'class', htmlFor: 'for', tabIndex: 'tabindex'};
  const PLAIN = new Set(['id', 'href', 'src', 'alt', 'title', 'role', 'rel', 'target', 'type', 'name', 'lang', 'dir', 'width', 'height', 'download']);
  const BOOLEAN = new Set(['disabled', 'hidden']);
  const attributeOf = (prop) => RENAMED[prop] || (PLAIN.has(prop) || BOOLEAN.has(prop) || /^(aria|data)-/.test(prop) ? prop : null);
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\\s+/).join('.') : '');
  const checked = new WeakSet();
  const check = (fiber) => {
    for (let f = fiber; f; f = f.sibling) {
      const el = f.stateNode;
      if (f.tag === 5 && el && el.nodeType === 1 && !checked.has(el)) {
        checked.add(el);
        const props = f.memoizedProps || {};
        if (!props.suppressHydrationWarning) {
          for (const prop of Object.keys(props)) {
            const name = attributeOf(prop);
            if (!name) continue;
            const value = props[prop];
            if (typeof value === 'function' || typeof value === 'symbol') continue;
            let expected;
            if (BOOLEAN.has(prop)) expected = value ? '' : null;
            else if (value === null || value === undefined || (value === false && !/^(aria|data)-/.test(prop))) expected = null;
            else if ((prop === 'href' || prop === 'src') && value === '') expected = null;
            else expected = String(value);
            const actual = el.getAttribute(name);
            const same = BOOLEAN.has(prop) ? (actual !== null) === (expected !== null) : actual === expected;
            if (!same) reports.push({source: 'attribute', text: describe(el) + ' ' + name + ': the page has ' + JSON.stringify(actual) + ', React rendered ' + JSON.stringify(expected)});
          }
        }
      }
      if (f.child) check(f.child);
    }
  };
  const previous = window.__REACT_DEVTOOLS_GLOBAL_HOOK__;
  let ids = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    ...previous,
    supportsFiber: true,
    renderers: (previous && previous.renderers) || new Map(),
    inject(renderer) {
      window.__hydrationWatch = true;
      return previous && previous.inject ? previous.inject(renderer) : ++ids;
    },
    onCommitFiberRoot(id, root, priority, didError) {
      try { check(root.current.child); } catch (e) { reports.push({source: 'attribute', text: 'the check failed: ' + e}); }
      if (previous && previous.onCommitFiberRoot) previous.onCommitFiberRoot(id, root, priority, didError);
    },
    onPostCommitFiberRoot(id, root) { if (previous && previous.onPostCommitFiberRoot) previous.onPostCommitFiberRoot(id, root); },
    onCommitFiberUnmount(id, fiber) { if (previous && previous.onCommitFiberUnmount) previous.onCommitFiberUnmount(id, fiber); },
    checkDCE() {},
  };
})();`;
