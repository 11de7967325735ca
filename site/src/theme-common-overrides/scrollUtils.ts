/**
 * @docusaurus/theme-common's lib/utils/scrollUtils.js with one function replaced
 * (plugins/framework-modules.ts puts this module in its place for every importer but this folder).
 *
 * useScrollPosition read the scroll offsets on every render (a useRef initial value), which
 * forces a layout whenever the DOM changed since the last one: on a hydrating page, always. Here
 * the first position is read in the effect, after the commit, as the stock hook's scroll handler
 * reads every later one.
 */
import {useEffect, useRef} from 'react';
import {useEvent} from '~stock/theme-common/reactUtils';
import {useScrollController} from '~stock/theme-common/scrollUtils';

export * from '~stock/theme-common/scrollUtils';

interface ScrollPosition {
  scrollX: number;
  scrollY: number;
}

const getScrollPosition = (): ScrollPosition => ({scrollX: window.pageXOffset, scrollY: window.pageYOffset});

/**
 * Runs `effect` with the new and the previous scroll position on each scroll, unless scroll
 * events are disabled through useScrollController (the stock hook's contract).
 */
export function useScrollPosition(
  effect: (position: ScrollPosition, lastPosition: ScrollPosition | null) => void,
  deps: unknown[] = [],
): void {
  const {scrollEventsEnabledRef} = useScrollController();
  const lastPositionRef = useRef<ScrollPosition | null>(null);
  const dynamicEffect = useEvent(effect);
  useEffect(() => {
    lastPositionRef.current ??= getScrollPosition();
    const handleScroll = () => {
      if (!scrollEventsEnabledRef.current) return;
      const currentPosition = getScrollPosition();
      dynamicEffect(currentPosition, lastPositionRef.current);
      lastPositionRef.current = currentPosition;
    };
    handleScroll();
    window.addEventListener('scroll', handleScroll, {passive: true});
    return () => window.removeEventListener('scroll', handleScroll);
    // The caller's deps too, as in the stock hook.
  }, [dynamicEffect, scrollEventsEnabledRef, ...deps]);
}
