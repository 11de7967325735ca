/**
 * Docusaurus's mobile menu, rendered once the browser is idle after the page has hydrated (or at
 * once when the reader opens it first), not in hydration's own work.
 *
 * The menu is not in the server's page: Docusaurus renders it as soon as its window-size effect
 * finds a phone-sized screen, that is in the renders that end hydration and let the colour toggle
 * and the menu button work. On a docs page it holds the whole docs sidebar (about 350 React
 * elements on /docs/v2/measurement, a third of the page's), all off screen until the reader opens
 * the menu. Here that render waits for an idle moment; a menu opened before then is
 * rendered open at once (without its slide-in, that one time).
 */
import React, {useEffect, useState, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';
import Original from '@theme-original/Navbar/MobileSidebar';

/** Longest wait for an idle moment, and the wait where the browser has no idle callbacks. */
const IDLE_TIMEOUT_MS = 2000;
const NO_IDLE_CALLBACK_DELAY_MS = 200;

function whenIdle(callback: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(callback, {timeout: IDLE_TIMEOUT_MS});
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(callback, NO_IDLE_CALLBACK_DELAY_MS);
  return () => window.clearTimeout(id);
}

export default function NavbarMobileSidebarWrapper(): ReactNode {
  const {shouldRender, shown} = useNavbarMobileSidebar();
  const [idle, setIdle] = useState(false);
  // The idle moment that counts comes after the page has hydrated (useIsBrowser turns true in the
  // render after hydration's commit), not one between two of React's hydration slices.
  const hydrated = useIsBrowser();
  useEffect(() => {
    if (!shouldRender || idle || !hydrated) return undefined;
    return whenIdle(() => setIdle(true));
  }, [shouldRender, idle, hydrated]);
  return idle || shown ? <Original /> : null;
}
