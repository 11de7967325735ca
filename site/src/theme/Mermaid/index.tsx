/**
 * The theme's Mermaid diagram, with a role on the SVG Mermaid draws. Mermaid marks each diagram
 * with aria-roledescription ("flowchart-v2", "sequence"…) but no role, and a role description
 * on an element without a role is an ARIA error (axe: aria-roledescription). "group" keeps the
 * diagram's text readable, where "img" would hide it. The SVG appears after hydration, from a
 * lazy chunk: a MutationObserver sets the role when it does.
 */
import React, {useEffect, useRef, type ReactNode} from 'react';
import Mermaid from '@theme-original/Mermaid';
import type MermaidType from '@theme/Mermaid';
import type {WrapperProps} from '@docusaurus/types';
import {NEEDS_HYDRATION_ATTRIBUTE} from '../../server-article';

type Props = WrapperProps<typeof MermaidType>;

export default function MermaidWrapper(props: Props): ReactNode {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return undefined;
    const giveRole = () => {
      root.querySelectorAll('svg[aria-roledescription]:not([role])').forEach((svg) => svg.setAttribute('role', 'group'));
    };
    giveRole();
    const observer = new MutationObserver(giveRole);
    observer.observe(root, {childList: true, subtree: true});
    return () => observer.disconnect();
  }, []);
  return (
    // Drawn in the browser: a page with a diagram hydrates its article (src/server-article).
    <div ref={ref} {...{[NEEDS_HYDRATION_ATTRIBUTE]: ''}}>
      <Mermaid {...props} />
    </div>
  );
}
