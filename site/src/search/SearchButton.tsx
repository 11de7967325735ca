/**
 * The navbar's search button, drawn with DocSearch's own class names so its stylesheet gives it
 * the stock look, but without importing DocSearch (about 56 KB gzipped): the modal is loaded
 * on first use (issue 6).
 */
import React, {forwardRef, useEffect, useState, type ComponentPropsWithoutRef} from 'react';
import {translate} from '@docusaurus/Translate';

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

/** "Ctrl" drawn small enough for DocSearch's 20 px key cap. */
function ControlKeyIcon() {
  return (
    <svg width="15" height="15" viewBox="0 0 15 15" aria-hidden="true" className="DocSearch-Control-Key-Icon">
      <text x="7.5" y="10" textAnchor="middle" fontSize="6.4" fontWeight="600" fill="currentColor">
        Ctrl
      </text>
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
      // The name is the visible text (WCAG 2.5.3, Label in Name); the shortcut is announced from
      // aria-keyshortcuts, and the key caps that show it are hidden from the name. The label is
      // kept for narrow screens, where the text is hidden and only the icon shows.
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
            <kbd className="DocSearch-Button-Key">{actionKey === 'Ctrl' ? <ControlKeyIcon /> : actionKey}</kbd>
            <kbd className="DocSearch-Button-Key">K</kbd>
          </>
        )}
      </span>
    </button>
  );
});
