/**
 * `react-helmet-async` in the browser (plugins/framework-modules.ts aliases it here for the client
 * build only; the server renders with the package itself; SITE_WITHOUT=head-client builds with it
 * in the browser too). Docusaurus uses two of its exports: `HelmetProvider` around the app
 * (clientEntry.js) and `Helmet`, which `@docusaurus/Head` renders. The package weighs about 5 KB
 * gzip in main.js with its dependencies (react-fast-compare, shallowequal, invariant, prop-types'
 * shims), most of it for the server's rendering and for prop checks; this module is its browser
 * half, with the same results on the document:
 * - every mounted Helmet's children, in mount order, are reduced as the package reduces them: the
 *   innermost title, the `<html>`/`<body>`/`<title>` attributes merged (later wins), and for
 *   `meta`, `link`, `script`, `style`, `noscript` and `base` tags the package's own dedup (a later
 *   instance's tag replaces an earlier one's with the same primary attribute: name, property,
 *   charset, http-equiv or itemprop for meta; rel=canonical or href for link);
 * - at the next animation frame (the package's `defer`, its default), tags marked `data-rh` in the
 *   head are kept when an equal one is due, removed otherwise, and the missing ones appended;
 *   attributes the head set earlier (listed in `data-rh` on the element) and no longer due are
 *   removed.
 * test/overrides.test.ts fails when the package's version changes; e2e/head-client.spec.ts
 * compares the head after client navigation with the server's head of the same page.
 */
import React, {Children, Fragment, isValidElement, useLayoutEffect, useRef, type ReactNode} from 'react';

type Attributes = Record<string, string | undefined>;
interface HelmetState {
  title?: string;
  titleAttributes?: Attributes;
  htmlAttributes?: Attributes;
  bodyAttributes?: Attributes;
  /** Tags by tag name, each an attribute map (innerHTML / cssText for script, noscript, style). */
  tags: Record<string, Attributes[]>;
}

const HELMET = 'data-rh';
const TAG_TYPES = ['base', 'link', 'meta', 'noscript', 'script', 'style'] as const;
/** React prop names that are not the HTML attribute's name (the package's own map). */
const HTML_NAMES: Record<string, string> = {
  accessKey: 'accesskey',
  charSet: 'charset',
  className: 'class',
  contentEditable: 'contenteditable',
  contextMenu: 'contextmenu',
  httpEquiv: 'http-equiv',
  itemProp: 'itemprop',
  tabIndex: 'tabindex',
};
/** Each tag type's primary attributes: a later tag with the same value replaces an earlier one. */
const PRIMARY: Record<string, string[]> = {
  base: ['href'],
  link: ['rel', 'href'],
  meta: ['name', 'charset', 'http-equiv', 'property', 'itemprop'],
  noscript: ['innerHTML'],
  script: ['src', 'innerHTML'],
  style: ['cssText'],
};

const text = (children: unknown): string | undefined =>
  children == null ? undefined : Array.isArray(children) ? children.join('') : String(children);

/** A Helmet's children as the package maps them to its props. */
function stateOf(children: ReactNode, state: HelmetState = {tags: {}}): HelmetState {
  Children.forEach(children, (child) => {
    if (!isValidElement(child)) return;
    const {children: nested, ...props} = child.props as Record<string, unknown>;
    if (child.type === Fragment) {
      stateOf(nested as ReactNode, state);
      return;
    }
    const attributes: Attributes = {};
    for (const [key, value] of Object.entries(props)) attributes[HTML_NAMES[key] ?? key] = value as string | undefined;
    const type = child.type as string;
    if (type === 'title') {
      state.title = text(nested);
      state.titleAttributes = attributes;
    } else if (type === 'html') state.htmlAttributes = attributes;
    else if (type === 'body') state.bodyAttributes = attributes;
    else if ((TAG_TYPES as readonly string[]).includes(type)) {
      const content = text(nested);
      if (content !== undefined) attributes[type === 'style' ? 'cssText' : 'innerHTML'] = content;
      (state.tags[type] ??= []).push(attributes);
    }
  });
  return state;
}

/** The package's getTagsFromPropsList: innermost instance first, each tag kept unless a later instance had its key. */
function reduceTags(type: string, instances: HelmetState[]): Attributes[] {
  const primary = PRIMARY[type]!;
  const approved: Record<string, Record<string, true>> = {};
  const out: Attributes[] = [];
  for (const instance of [...instances].reverse()) {
    const tags = instance.tags[type];
    if (!tags) continue;
    const seen: Record<string, Record<string, true>> = {};
    const kept = tags.filter((tag) => {
      let key: string | undefined;
      for (const attribute of Object.keys(tag)) {
        const lower = attribute.toLowerCase();
        if (
          primary.includes(lower) &&
          !(key === 'rel' && tag[key]?.toLowerCase() === 'canonical') &&
          !(lower === 'rel' && tag[lower]?.toLowerCase() === 'stylesheet')
        ) {
          key = lower;
        }
        if (primary.includes(attribute) && (attribute === 'innerHTML' || attribute === 'cssText' || attribute === 'itemprop')) key = attribute;
      }
      const value = key && tag[key];
      if (!key || !value) return false;
      if (approved[key]?.[value.toLowerCase()]) return false;
      (seen[key] ??= {})[value.toLowerCase()] = true;
      return true;
    });
    out.push(...kept.reverse());
    for (const [key, values] of Object.entries(seen)) approved[key] = {...approved[key], ...values};
  }
  return out.reverse();
}

function updateAttributes(element: Element | undefined, attributes: Attributes): void {
  if (!element) return;
  const managed = element.getAttribute(HELMET)?.split(',') ?? [];
  const toRemove = [...managed];
  const keys = Object.keys(attributes);
  for (const attribute of keys) {
    const value = attributes[attribute] || '';
    if (element.getAttribute(attribute) !== value) element.setAttribute(attribute, value);
    if (!managed.includes(attribute)) managed.push(attribute);
    const index = toRemove.indexOf(attribute);
    if (index !== -1) toRemove.splice(index, 1);
  }
  for (const attribute of toRemove.reverse()) element.removeAttribute(attribute);
  if (managed.length === toRemove.length) element.removeAttribute(HELMET);
  else if (element.getAttribute(HELMET) !== keys.join(',')) element.setAttribute(HELMET, keys.join(','));
}

function updateTags(type: string, tags: Attributes[]): void {
  const head = document.head;
  const old = [...head.querySelectorAll(`${type}[${HELMET}]`)];
  const added: Element[] = [];
  for (const tag of tags) {
    const element = document.createElement(type);
    for (const [attribute, value] of Object.entries(tag)) {
      if (attribute === 'innerHTML') element.innerHTML = value ?? '';
      else if (attribute === 'cssText') element.appendChild(document.createTextNode(value ?? ''));
      else element.setAttribute(attribute, value ?? '');
    }
    element.setAttribute(HELMET, 'true');
    const same = old.findIndex((existing) => element.isEqualNode(existing));
    if (same !== -1) old.splice(same, 1);
    else added.push(element);
  }
  for (const element of old) element.remove();
  for (const element of added) head.appendChild(element);
}

const merged = (instances: HelmetState[], field: 'htmlAttributes' | 'bodyAttributes' | 'titleAttributes'): Attributes =>
  Object.assign({}, ...instances.map((instance) => instance[field] ?? {}));

/** The mounted Helmets, in mount order. */
const mounted: {state: HelmetState}[] = [];
let frame = 0;

function commit(): void {
  const instances = mounted.map((instance) => instance.state);
  updateAttributes(document.body, merged(instances, 'bodyAttributes'));
  updateAttributes(document.documentElement, merged(instances, 'htmlAttributes'));
  const title = instances.reduce<string | undefined>((found, instance) => ('title' in instance ? instance.title : found), undefined);
  if (title !== undefined && document.title !== title) document.title = title;
  updateAttributes(document.getElementsByTagName('title')[0], merged(instances, 'titleAttributes'));
  for (const type of TAG_TYPES) updateTags(type, reduceTags(type, instances));
}

function scheduleCommit(): void {
  cancelAnimationFrame(frame);
  frame = requestAnimationFrame(commit);
}

export function Helmet({children}: {children?: ReactNode}): ReactNode {
  const instance = useRef<{state: HelmetState}>(null);
  const state = stateOf(children);
  const serialized = JSON.stringify(state);
  useLayoutEffect(() => {
    const entry = {state};
    instance.current = entry;
    mounted.push(entry);
    scheduleCommit();
    return () => {
      mounted.splice(mounted.indexOf(entry), 1);
      scheduleCommit();
    };
    // Mounted once; its state is updated below.
  }, []);
  useLayoutEffect(() => {
    if (!instance.current || instance.current.state === state) return;
    instance.current.state = state;
    scheduleCommit();
    // The state changes when what it serializes to does.
  }, [serialized]);
  return null;
}

export function HelmetProvider({children}: {children?: ReactNode}): ReactNode {
  return <>{children}</>;
}
