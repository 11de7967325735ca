/**
 * Parts of a doc page that a phone never shows, kept as the server rendered them while the first
 * page of a visit hydrates on a phone-sized screen.
 *
 * The server renders a doc page for a wide screen: the sidebar and the table of contents beside
 * the article. On a screen up to Docusaurus's desktop breakpoint (996 px) the stylesheet hides
 * both, and right after hydration Docusaurus's window-size effect removes them (the phone's menu
 * and the collapsible table of contents above the article take over). Hydrating them first ran
 * every sidebar link and category (hooks, a Link each) for markup that is never seen and is
 * deleted a moment later. Here, on such a screen, their server markup is adopted as it is
 * (`dangerouslySetInnerHTML` of what is in the page: React neither walks nor replaces it) until
 * that effect removes it. A wider screen, a later render and every client-side navigation get the
 * components as always.
 */
import React, {useState, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';

/** Docusaurus's breakpoint (theme-common's useWindowSize): at or below it a screen is a phone's. */
const DESKTOP_BREAKPOINT_PX = 996;

interface Kept {
  className: string;
  html: string;
}

/** The server's markup of the element `selector` finds, when this render hydrates on a phone. */
function keptMarkup(selector: string): Kept | undefined {
  if (typeof document === 'undefined' || window.innerWidth > DESKTOP_BREAKPOINT_PX) return undefined;
  const element = document.querySelector(selector);
  if (!element) return undefined;
  return {className: element.getAttribute('class') ?? '', html: element.innerHTML};
}

/**
 * Renders `children` (one <div>, found in the server's page by `selector`), or on a phone's first
 * hydration a <div> that keeps the server's markup of it.
 */
export default function HiddenOnPhone({selector, children}: {selector: string; children: ReactNode}): ReactNode {
  // useIsBrowser is false only while the page hydrates; kept for as long as this element lives.
  const isBrowser = useIsBrowser();
  const [kept] = useState(() => (isBrowser ? undefined : keptMarkup(selector)));
  if (kept) return <div className={kept.className} dangerouslySetInnerHTML={{__html: kept.html}} />;
  return children;
}
