/**
 * The navbar's search button, drawn with DocSearch's own class names so its stylesheet gives it
 * the stock look, but without importing DocSearch (about 56 KB gzipped): the modal is loaded
 * on first use (issue 6).
 */
import React, {forwardRef, useEffect, useState, type ComponentPropsWithoutRef} from 'react';
import {translate} from '@docusaurus/Translate';
// Here, not in index.ts: the bundler skips a re-exporting index of a side-effect-free package.
import './styles.css';

type ActionKey = 'Ctrl' | '⌘';

function isAppleDevice(): boolean {
  return /Mac|iPhone|iPod|iPad/i.test(navigator.platform);
}

function SearchIcon() {
  return (
    <svg width="20" height="20" className="DocSearch-Search-Icon" viewBox="0 0 20 20" aria-hidden="true">
      <circle cx="8.6" cy="8.6" r="6.4" stroke="currentColor" strokeWidth="1.5" fill="none" />
      <path d="M13.3 13.3 18.2 18.2" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}

export type SearchButtonProps = ComponentPropsWithoutRef<'button'>;

export const SearchButton = forwardRef<HTMLButtonElement, SearchButtonProps>(function SearchButton(props, ref) {
  const label = translate({
    id: 'theme.SearchBar.label',
    message: 'Search',
    description: 'The ARIA label and placeholder for search button',
  });
  // Known only in the browser: the server renders the Ctrl variant without key caps, as DocSearch does.
  const [actionKey, setActionKey] = useState<ActionKey | null>(null);
  useEffect(() => setActionKey(isAppleDevice() ? '⌘' : 'Ctrl'), []);
  const keyName = actionKey === '⌘' ? 'Meta' : 'Control';

  return (
    <button
      type="button"
      className="DocSearch DocSearch-Button"
      // The name is the visible label (WCAG 2.5.3, Label in Name) and the shortcut is announced
      // from aria-keyshortcuts. The key caps are a hint drawn by CSS (styles.css), not part of
      // the label: as text they made the visible text "SearchCtrlK", which no name contains.
      // The aria-label is for narrow screens, where the label is hidden and only the icon shows.
      aria-label={label}
      aria-keyshortcuts={`${keyName}+K`}
      {...props}
      ref={ref}>
      <span className="DocSearch-Button-Container">
        <SearchIcon />
        <span className="DocSearch-Button-Placeholder">{label}</span>
      </span>
      <span className="DocSearch-Button-Keys" aria-hidden="true">
        {actionKey !== null && (
          <>
            <kbd className="DocSearch-Button-Key" data-key={actionKey} />
            <kbd className="DocSearch-Button-Key" data-key="K" />
          </>
        )}
      </span>
    </button>
  );
});
