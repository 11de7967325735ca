/**
 * Keyboard shortcuts of the search modal (spec section 2), handled by the always-loaded search
 * bar so they work before the modal's code has been downloaded:
 * - Ctrl/Cmd+K opens and closes; `/` opens unless the reader is typing in a field; Escape closes.
 * - With the search button focused, any key counts as input (the modal opens with it), except
 *   the find shortcut Ctrl/Cmd+F.
 * While the modal loads, the reader types into the search shell (shell.inline.js), which handles
 * its own Escape and Ctrl/Cmd+K.
 */
import {useEffect, useRef, type RefObject} from 'react';

export interface SearchShortcutsOptions {
  isOpen: boolean;
  /** Opens the modal; `typed` becomes its initial query. */
  open: (typed?: string) => void;
  close: () => void;
  buttonRef: RefObject<HTMLButtonElement | null>;
}

export function isEditingContent(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName);
}

const hasActionModifier = (event: KeyboardEvent) => event.ctrlKey || event.metaKey;

/** Ctrl/Cmd+F stays the browser's find; Space and Enter press the button as usual. */
export function countsAsSearchInput(event: KeyboardEvent): boolean {
  if (event.key.length !== 1 || event.key === ' ') return false;
  return !(hasActionModifier(event) && event.key.toLowerCase() === 'f');
}

export function useSearchShortcuts(options: SearchShortcutsOptions): void {
  // The listener reads the latest render's state, not the state of the render that registered it:
  // an effect may run after the paint, so a listener re-registered by an effect
  // answered a Ctrl+K pressed just after Escape as if the modal were still open, and closed it.
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const {isOpen, open, close, buttonRef} = latest.current;
      const toggle = hasActionModifier(event) && event.key.toLowerCase() === 'k' && !event.altKey;
      const slash = event.key === '/' && !isOpen && !isEditingContent(event.target);
      if ((event.key === 'Escape' && isOpen) || toggle || slash) {
        event.preventDefault();
        if (isOpen) close();
        // Another DocSearch modal may already be showing.
        else if (!document.body.classList.contains('DocSearch--active')) open();
        return;
      }
      if (!isOpen && buttonRef.current !== null && buttonRef.current === document.activeElement && countsAsSearchInput(event)) {
        event.preventDefault();
        open(event.key);
      }
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
