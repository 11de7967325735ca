/**
 * `@docusaurus/Head` for this site (plugins/framework-modules.ts aliases it here; a build without
 * the override `head-after-hydration` keeps the stock one): the stock Head, rendered once the first
 * page has hydrated instead of while it hydrates.
 *
 * React hydrates the first page in time slices. Each stock <Head> (a
 * react-helmet-async <Helmet>) reports to the document's head as it renders, and Helmet applies
 * the head of the instances met so far at the next frame: between two slices the page's title
 * becomes the site's and its canonical, description, Open Graph and structured-data tags are
 * removed, then added back over the next frames. Here a Head renders nothing while it hydrates (a Helmet
 * renders no element, so the markup is the same); right after the hydration's commit React renders
 * every Head again, in one render, and Helmet applies the whole head once: the head the server
 * wrote, so nothing changes. The server renders the stock Head; so does every page after the
 * first (client navigation). e2e/hydration-work.spec.ts shows it; test/overrides.test.ts
 * fails when the stock Head changes.
 */
import React, {useSyncExternalStore, type ReactNode} from 'react';
import type {Props} from '@docusaurus/Head';
// The stock Head by its file: '@docusaurus/Head' is this module.
import StockHead from '@docusaurus/core/lib/client/exports/Head.js';

/** Nothing changes the answer after hydration: there is nothing to subscribe to. */
const subscribe = () => () => undefined;
/** In the browser, after hydration (and for every Head mounted later): render. */
const inBrowser = () => true;
/** While hydrating, React reads this "server" snapshot: false in the browser, true on the server. */
const onServer = () => typeof window === 'undefined';

export default function Head(props: Props): ReactNode {
  // React hydrates with the server snapshot, then, since the browser's differs, renders every
  // Head again right after the hydration's commit, in one batched render.
  const render = useSyncExternalStore(subscribe, inBrowser, onServer);
  return render ? <StockHead {...props} /> : null;
}
