/**
 * A part of the page that the first page's hydration leaves for a task of its own.
 *
 * Preact (plugins/framework-modules.ts) hydrates in one go, without React's time slices: on a
 * phone's CPU (x4) /docs/introduction hydrated in one task of about 110 ms, a long task that
 * Lighthouse counts in Total Blocking Time. Preact keeps the server's markup of a component that
 * suspends while it hydrates, and hydrates it when the promise it threw settles (its Suspense
 * hydration). Here each such part suspends on its first hydration and is let through one per
 * task (a MessageChannel message each), in the order the parts rendered: the navbar, the docs
 * column and the footer each take a task of 10-35 ms instead of one long one. Until then the part
 * is the server's markup: visible and laid out, links work as plain links; the search button is
 * the early search shell's either way.
 *
 * Inside a part, useIsBrowser() is false while it hydrates, as it is for the rest of the page
 * while the page hydrates. `<html data-hydrating-parts>` holds the number of parts still to
 * hydrate, and is removed once the last one has rendered: Docusaurus's `data-has-hydrated` turns true after the first commit,
 * before them. The server, every later render (client-side navigation) and a React build
 * (SITE_RENDERER=react, which slices hydration itself) render the children directly.
 */
import React, {Suspense, useEffect, useState, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
// Docusaurus's own provider of useIsBrowser (the module its root renders).
import {BrowserContextProvider} from '@docusaurus/core/lib/client/browserContext.js';

const ATTRIBUTE = 'data-hydrating-parts';

interface Wait {
  promise: Promise<void>;
  done: boolean;
}

const queue: Array<() => void> = [];
let pending = 0;
/** The first page's root has committed (its hydration, less the deferred parts). */
let rootCommitted = false;
const listeners = new Set<() => void>();

/**
 * True once the first page has hydrated whole: its root and every deferred part. In a React build
 * nothing is deferred and React reads a store's server snapshot while it hydrates: true.
 */
export function hydrationOver(): boolean {
  return __SITE_RENDERER__ === 'react' || (rootCommitted && pending === 0);
}

/** Calls `listener` when hydrationOver() turns true; returns the unsubscribe. */
export function subscribeHydration(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function setCount(): void {
  if (pending > 0) document.documentElement.setAttribute(ATTRIBUTE, String(pending));
  else document.documentElement.removeAttribute(ATTRIBUTE);
  if (hydrationOver()) for (const listener of listeners) listener();
}

/**
 * Docusaurus's client-module lifecycle (this module is one in Preact builds): the first call is in
 * the commit of the first page's root.
 */
export function onRouteDidUpdate(): void {
  if (rootCommitted) return;
  rootCommitted = true;
  setCount();
}

/** Lets the next part through in a task of its own. */
function releaseNext(): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    queue.shift()?.();
    if (queue.length > 0) releaseNext();
  };
  channel.port2.postMessage(null);
}

function deferral(): Wait {
  let release!: () => void;
  const wait: Wait = {promise: new Promise<void>((resolve) => (release = resolve)), done: false};
  queue.push(() => {
    wait.done = true;
    release();
  });
  pending++;
  setCount();
  if (queue.length === 1) releaseNext();
  return wait;
}

/** True while the first page's root hydrates, in the browser, with Preact. */
function firstHydration(): boolean {
  return __SITE_RENDERER__ === 'preact' && typeof document !== 'undefined' && !rootCommitted;
}

/**
 * The part's hydration: as at the page's, useIsBrowser() is false in it and turns true after it
 * (components such as src/server-article and src/hidden-on-phone keep the server's markup only
 * while it is false). The part counts as hydrated once that second render is done.
 */
function Gate({wait, children}: {wait: Wait; children: ReactNode}): ReactNode {
  if (!wait.done) throw wait.promise;
  return (
    <BrowserContextProvider>
      <Counted>{children}</Counted>
    </BrowserContextProvider>
  );
}

function Counted({children}: {children: ReactNode}): ReactNode {
  const isBrowser = useIsBrowser();
  useEffect(() => {
    if (!isBrowser) return;
    pending--;
    setCount();
  }, [isBrowser]);
  return children;
}

/** `children` must render one element: that element's server markup stays until its turn. */
export default function DeferredHydration({children}: {children: ReactNode}): ReactNode {
  const [wait] = useState(() => (firstHydration() ? deferral() : undefined));
  if (!wait) return children;
  return (
    <Suspense fallback={null}>
      <Gate wait={wait}>{children}</Gate>
    </Suspense>
  );
}
