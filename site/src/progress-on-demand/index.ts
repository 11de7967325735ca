/**
 * theme-classic's `nprogress` client module (lib/nprogress.js) for this site
 * (plugins/framework-modules.ts aliases it here; SITE_WITHOUT=progress-on-demand builds with the
 * stock one): the same bar, shown after the same 200 ms of a navigation, with `nprogress` itself
 * (1.2 KB gzip) loaded as a chunk when the first navigation starts instead of in main.js. Nothing
 * on the first page needs it: the bar only ever shows during a client navigation, and its chunk
 * downloads within the 200 ms before it is due. The stylesheet is the stock one, loaded as before.
 * test/overrides.test.ts fails when the stock module changes.
 */
import type {ClientModule} from '@docusaurus/types';
import '@docusaurus/theme-classic/lib/nprogress.css';

/** The part of nprogress's API used here (the package has no types of its own). */
interface Bar {
  configure(options: {showSpinner: boolean}): unknown;
  start(): unknown;
  done(): unknown;
}

let bar: Promise<Bar> | undefined;
function loadBar(): Promise<Bar> {
  // @ts-expect-error: nprogress ships no types
  bar ??= import('nprogress').then((module: {default?: Bar} & Bar) => {
    const nprogress = module.default ?? module;
    nprogress.configure({showSpinner: false});
    return nprogress;
  });
  return bar;
}

const delay = 200;

const clientModule: ClientModule = {
  onRouteUpdate({location, previousLocation}) {
    if (previousLocation && location.pathname !== previousLocation.pathname) {
      const loading = loadBar();
      let cancelled = false;
      const progressBarTimeout = window.setTimeout(() => {
        void loading.then((nprogress) => {
          if (!cancelled) nprogress.start();
        });
      }, delay);
      return () => {
        cancelled = true;
        window.clearTimeout(progressBarTimeout);
      };
    }
    return undefined;
  },
  onRouteDidUpdate() {
    void bar?.then((nprogress) => nprogress.done());
  },
};

export default clientModule;
