/**
 * Loads the DocSearch modal (and with it the search client) on first use: pointer over, focus
 * or touch on the search button preloads it; a click or a shortcut loads it and then opens it.
 * Until it is there the reader types into the search shell (shell.inline.js), which shows at
 * once; the modal takes the shell's text and caret when it mounts (SearchModal.tsx).
 */
import {useCallback, useEffect, useRef, useState} from 'react';
import {searchShell} from './shell.ts';
import {useSearchShortcuts} from './useSearchShortcuts.ts';

type SearchModalModule = typeof import('./SearchModal.tsx');
export type SearchModalComponent = SearchModalModule['default'];

let loading: Promise<SearchModalModule> | undefined;

export function loadSearchModal(): Promise<SearchModalModule> {
  loading ??= import('./SearchModal.tsx').catch((error: unknown) => {
    // Let the next hover or shortcut try again (e.g. after a network failure).
    loading = undefined;
    throw error;
  });
  return loading;
}

export function useSearchLauncher() {
  const [Modal, setModal] = useState<SearchModalComponent | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const [initialQuery, setInitialQuery] = useState<string | undefined>(undefined);
  const buttonRef = useRef<HTMLButtonElement>(null);
  /** True from a request to open until the modal opens or the reader closes the shell. */
  const wantedRef = useRef(false);

  const preload = useCallback(() => {
    loadSearchModal().then(
      (module) => setModal(() => module.default),
      () => undefined,
    );
  }, []);

  const open = useCallback((typed = '') => {
    if (wantedRef.current) return;
    wantedRef.current = true;
    const shell = searchShell();
    // A no-op when the shell already shows (it was opened before the app took over).
    shell?.open(typed);
    loadSearchModal().then(
      (module) => {
        if (!wantedRef.current) return;
        wantedRef.current = false;
        setModal(() => module.default);
        // What the reader has typed so far; later keys are handed over when the modal mounts.
        setInitialQuery(shell?.input()?.value || typed || undefined);
        setIsOpen(true);
      },
      () => {
        wantedRef.current = false;
        shell?.failed();
      },
    );
  }, []);

  const close = useCallback(() => {
    setIsOpen(false);
    setInitialQuery(undefined);
    buttonRef.current?.focus();
  }, []);

  // From now on clicks and shortcuts are the search bar's; a shell opened before is handed over.
  useEffect(() => {
    searchShell()?.takeOver({
      open: () => open(),
      // The reader closed the shell: the modal is no longer wanted, and one that has just mounted
      // (Cancel pressed as it took over) closes.
      cancel: () => {
        wantedRef.current = false;
        close();
      },
    });
  }, [open, close]);

  useSearchShortcuts({isOpen, open, close, buttonRef});

  return {Modal, isOpen, initialQuery, buttonRef, preload, open, close};
}
