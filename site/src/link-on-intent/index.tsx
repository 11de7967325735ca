/**
 * `@docusaurus/Link` for this site (plugins/framework-modules.ts aliases it here): Docusaurus's
 * Link without its prefetch of every link that scrolls into view. The stock Link gives each
 * internal link an IntersectionObserver of its own, made anew at each render of the link, and
 * prefetches the route of every visible one; on a phone the closed menu alone renders the whole
 * docs sidebar right after hydration, so those observers are main-thread work at load
 * (site/OVERRIDES.md has the measured cost). Here a route loads when the reader shows intent: on
 * hover and on touch start, as the stock Link also does (and, as there, not on 2G or save-data).
 *
 * Everything else is the stock Link of Docusaurus 3.10 (core/lib/client/exports/Link.js), through
 * public APIs only: base URL and trailing slash applied to internal links, `pathname://` for
 * internal links the router must not handle, external links opening in a new tab, anchors and
 * targets collected for the build's broken-link check, NavLink for `isNavLink`. site/overrides.json
 * pins the stock file, so test/overrides.test.ts fails when an upgrade changes it.
 * e2e/shell-loading.spec.ts shows the behaviour ('route preloading').
 */
import React, {forwardRef, useImperativeHandle, useRef, type ComponentType, type ReactNode} from 'react';
import {NavLink, Link as RouterLink} from 'react-router-dom';
import {applyTrailingSlash} from '@docusaurus/utils-common';
import type {Props} from '@docusaurus/Link';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import isInternalUrl from '@docusaurus/isInternalUrl';
import useBrokenLinks from '@docusaurus/useBrokenLinks';
import {useBaseUrlUtils} from '@docusaurus/useBaseUrl';

/** Only links starting with / get the base URL: useBaseUrl would also prefix relative ones. */
const shouldAddBaseUrlAutomatically = (to: string) => to.startsWith('/');

function Link(
  {
    isNavLink,
    to,
    href,
    activeClassName,
    isActive,
    'data-noBrokenLinkCheck': noBrokenLinkCheck,
    autoAddBaseUrl = true,
    ...props
  }: Props,
  forwardedRef: React.ForwardedRef<HTMLAnchorElement>,
): ReactNode {
  const {siteConfig} = useDocusaurusContext();
  const {trailingSlash, baseUrl} = siteConfig;
  const router = siteConfig.future.experimental_router;
  const {withBaseUrl} = useBaseUrlUtils();
  const brokenLinks = useBrokenLinks();
  const innerRef = useRef<HTMLAnchorElement | null>(null);
  useImperativeHandle(forwardedRef, () => innerRef.current!);
  const preloaded = useRef(false);

  // `to` and `href` mean the same: MDX links always give `href`.
  const targetLinkUnprefixed = to || href;
  const isInternal = isInternalUrl(targetLinkUnprefixed);
  // pathname:// marks a link to this site that the router must not handle; it keeps the base URL.
  const withoutPathnameProtocol = targetLinkUnprefixed?.replace('pathname://', '');
  let targetLink =
    withoutPathnameProtocol !== undefined && autoAddBaseUrl && shouldAddBaseUrlAutomatically(withoutPathnameProtocol)
      ? withBaseUrl(withoutPathnameProtocol)
      : withoutPathnameProtocol;
  if (router === 'hash' && targetLink?.startsWith('./')) targetLink = targetLink.slice(1);
  if (targetLink && isInternal) targetLink = applyTrailingSlash(targetLink, {trailingSlash, baseUrl});

  // The route's chunks load once the reader points at the link or touches it.
  const onInteractionEnter = () => {
    if (!preloaded.current && targetLink != null) {
      void window.docusaurus.preload(targetLink);
      preloaded.current = true;
    }
  };

  const isAnchorLink = targetLink?.startsWith('#') ?? false;
  const hasInternalTarget = !props.target || props.target === '_self';
  // A plain <a> unless the router can take the link (the hash router also takes anchors).
  const isRegularHtmlLink = !targetLink || !isInternal || !hasInternalTarget || (isAnchorLink && router !== 'hash');

  if (!noBrokenLinkCheck && (isAnchorLink || !isRegularHtmlLink)) brokenLinks.collectLink(targetLink);
  if (props.id) brokenLinks.collectAnchor(props.id);

  if (isRegularHtmlLink) {
    return (
      <a
        ref={innerRef}
        href={targetLink}
        {...(targetLinkUnprefixed && !isInternal && {target: '_blank', rel: 'noopener noreferrer'})}
        {...props}
      />
    );
  }
  const LinkComponent = (isNavLink ? NavLink : RouterLink) as unknown as ComponentType<Record<string, unknown>>;
  return (
    <LinkComponent
      {...props}
      onMouseEnter={onInteractionEnter}
      onTouchStart={onInteractionEnter}
      innerRef={(el: HTMLAnchorElement | null) => {
        innerRef.current = el;
      }}
      to={targetLink}
      {...(isNavLink && {isActive, activeClassName})}
    />
  );
}

export default forwardRef(Link);
