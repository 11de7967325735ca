/**
 * Loads the DocSearch modal (and with it the search client) on first use: pointer over, focus
 * or touch on the search button preloads it; a click or a shortcut loads it and then opens it.
 */
import {useCallback, useRef, useState} from 'react';
import {useSearchShortcuts} from './useSearchShortcuts';

type SearchModalModule = typeof import('./SearchModal');
export type SearchModalComponent = SearchModalModule['default'];

let loading: Promise<SearchModalModule> | undefined;

export function loadSearchModal(): Promise<SearchModalModule> {
  loading ??= import('./SearchModal').catch((error: unknown) => {
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
  const pendingRef = useRef<string | null>(null);

  const preload = useCallback(() => {
    loadSearchModal().then(
      (module) => setModal(() => module.default),
      () => undefined,
    );
  }, []);

  const open = useCallback((typed = '') => {
    if (pendingRef.current !== null) return;
    pendingRef.current = typed;
    loadSearchModal().then(
      (module) => {
        setModal(() => module.default);
        setInitialQuery(pendingRef.current || undefined);
        pendingRef.current = null;
        setIsOpen(true);
      },
      () => {
        pendingRef.current = null;
      },
    );
  }, []);

  const close = useCallback(() => {
    setIsOpen(false);
    setInitialQuery(undefined);
    buttonRef.current?.focus();
  }, []);

  useSearchShortcuts({isOpen, open, close, buttonRef, pendingRef});

  return {Modal, isOpen, initialQuery, buttonRef, preload, open, close};
}
