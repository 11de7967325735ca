/**
 * @docusaurus/theme-common's lib/utils/reactUtils.js with one function replaced
 * (plugins/framework-modules.ts puts this module in its place for every importer but this folder).
 *
 * useShallowMemoObject sorts an object's keys with localeCompare, and the first localeCompare of
 * a page builds ICU's collator: 17-32 ms (median ~27 ms) of main thread with a phone's CPU (x4),
 * in the middle of hydration (every doc page: the mobile sidebar's secondary menu, each code
 * block's word-wrap observer). Any fixed order will do for the memo's dependencies: code-unit
 * order builds nothing.
 */
import {useMemo} from 'react';

export * from '~stock/theme-common/reactUtils';

export function useShallowMemoObject<O extends object>(obj: O): O {
  const deps = Object.entries(obj);
  // Sorted by key so that the memo does not depend on the keys' order.
  deps.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  // The object's entries are its dependencies.
  return useMemo(() => obj, deps.flat());
}
