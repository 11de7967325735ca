/**
 * `@docusaurus/Head` for this site (plugins/framework-modules.ts aliases it here): the stock Head,
 * rendered once the first page has hydrated instead of while it hydrates.
 *
 * React hydrates the first page in time slices (src/hydration-pace); Preact hydrates parts of it
 * in tasks of their own (src/deferred-hydration), after its root has committed. Each stock <Head> (a
 * react-helmet-async <Helmet>) reports to the document's head as it renders, and Helmet applies
 * the head of the instances met so far at the next frame: between two slices the page's title
 * became the site's and its canonical, description, Open Graph and structured-data tags were
 * removed, then added back over the next frames (about 50 head mutations in 10 frames on
 * /docs/introduction with a phone's CPU). Here a Head renders nothing while it hydrates (a Helmet
 * renders no element, so the markup is the same); right after the hydration's commit React renders
 * every Head again, in one render, and Helmet applies the whole head once: the head the server
 * wrote, so nothing changes. The server renders the stock Head as before; so does every page after
 * the first (client navigation). e2e/hydration-work.spec.ts shows it; test/framework-modules.test.ts
 * fails when the stock Head changes.
 */
import React, {useSyncExternalStore, type ReactNode} from 'react';
import type {Props} from '@docusaurus/Head';
// The stock Head by its file: '@docusaurus/Head' is this module.
import StockHead from '@docusaurus/core/lib/client/exports/Head.js';
import {hydrationOver, subscribeHydration} from '../deferred-hydration';

/** While hydrating: false in the browser; the server renders the Head. */
const onServer = () => typeof window === 'undefined';

export default function Head(props: Props): ReactNode {
  // src/deferred-hydration's store: React reads the server snapshot while it hydrates and true
  // after, so it re-renders each Head right after the hydration's commit, in one batched render;
  // Preact reads no server snapshot, and the store is false until every deferred part is done.
  const render = useSyncExternalStore(subscribeHydration, hydrationOver, onServer);
  return render ? <StockHead {...props} /> : null;
}
