/**
 * A client module: React renders the first page's hydration in 20 ms slices instead of its 5 ms,
 * and goes back to 5 ms once that page has rendered.
 *
 * Docusaurus hydrates inside startTransition, so React's scheduler yields to the browser every
 * 5 ms: on a phone's CPU a docs page hydrates in about 200 tasks, and each boundary costs a task of
 * its own and whatever the browser runs in between. Slices of 20 ms make that about 50, still
 * far below a long task (50 ms), and the search shell, the only input handler before hydration,
 * still answers within a slice. Side by side (bench/interactivity.ts's throttled load, 6 loads):
 * hydrated 0.67x and 0.62x of the baseline on /docs/introduction and
 * /docs/v2/measurement, against 0.71x and 0.69x with 5 ms slices.
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
