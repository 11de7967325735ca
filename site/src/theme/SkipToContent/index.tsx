import {useCallback, useRef, type MouseEvent, type ReactNode} from 'react';
import {useHistory} from '@docusaurus/router';
import {translate} from '@docusaurus/Translate';
import {useLocationChange} from '@docusaurus/theme-common/internal';
import styles from './styles.module.css';

/** The theme's fallback target, present in every Layout (used without JavaScript). */
const FALLBACK_ID = '__docusaurus_skipToContent_fallback';

/**
 * Focuses an element that is not focusable by itself. The stock link removes the temporary
 * tabindex right after focusing, and Chromium then moves focus back to <body> (focus fix-up), so
 * screen readers never land on <main>. Keep tabindex until the element loses focus.
 */
function focusContainer(el: HTMLElement): void {
  el.setAttribute('tabindex', '-1');
  el.addEventListener('blur', () => el.removeAttribute('tabindex'), {once: true});
  el.focus();
}

export default function SkipToContent(): ReactNode {
  const label = translate({
    id: 'theme.common.skipToMainContent',
    description: 'The skip to content label used for accessibility',
    message: 'Skip to main content',
  });
  const containerRef = useRef<HTMLDivElement>(null);
  const {action} = useHistory();
  const onClick = useCallback((e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    const target =
      document.querySelector<HTMLElement>('main:first-of-type') ?? document.getElementById(FALLBACK_ID);
    if (target) focusContainer(target);
  }, []);
  // After a client-side navigation, start keyboard navigation from the top again (as the theme does).
  useLocationChange(({location}) => {
    if (containerRef.current && !location.hash && action === 'PUSH') focusContainer(containerRef.current);
  });
  return (
    <div ref={containerRef} role="region" aria-label={label}>
      <a className={styles.skipToContent} href={`#${FALLBACK_ID}`} onClick={onClick}>
        {label}
      </a>
    </div>
  );
}
