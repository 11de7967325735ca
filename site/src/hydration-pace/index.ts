/**
 * A client module: React renders the first page's hydration in 20 ms slices instead of its 5 ms,
 * and goes back to 5 ms once that page has rendered.
 *
 * Docusaurus hydrates inside startTransition, so React's scheduler yields to the browser every
 * 5 ms. On a phone's CPU (x4, throttled as Lighthouse's mobile profile) /docs/v2/measurement took
 * 26-27 scheduler tasks to hydrate, and 10 with 20 ms slices: each boundary is a task of its own
 * and whatever the browser runs in between. 20 ms stays far below a long task (50 ms), and the
 * search shell, the only input handler before hydration, still answers within a slice. Side by
 * side (indexer/bench/interactivity.ts's throttled load with clicks, 6 loads, two runs), hydrated moved
 * from 0.71x to 0.67-0.68x of the issue's baseline on /docs/introduction and from 0.67-0.69x to
 * 0.61-0.62x on /docs/v2/measurement; a run without clicks saw no difference on the
 * introduction. A small gain, within this machine's noise for one page. Those figures are React
 * 18's; React 19.3 still slices through the scheduler's shouldYield (react-dom-client's
 * workLoopConcurrentByScheduler), and the bench measures the gain on it (SITE_WITHOUT=hydration-pace).
 *
 * `onRouteDidUpdate` runs in the commit of the first page (Docusaurus's ClientLifecyclesDispatcher,
 * a layout effect), so later renders (client-side navigation, the search modal) keep React's own
 * pace.
 */
import {unstable_forceFrameRate} from 'scheduler';

/** Frames per second as the scheduler counts them: 1000 / 50 = 20 ms slices. */
const FIRST_HYDRATION_RATE = 50;

if (typeof window !== 'undefined') unstable_forceFrameRate(FIRST_HYDRATION_RATE);

export function onRouteDidUpdate(): void {
  // 0 restores the scheduler's default (5 ms).
  unstable_forceFrameRate(0);
}
