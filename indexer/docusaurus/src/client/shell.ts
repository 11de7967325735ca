/**
 * The search shell of shell.inline.js as React sees it: a search box shown from the first paint,
 * before the app and the DocSearch modal are there. Absent from a page built with Docusaurus's
 * stock template (STOCK_PAGE_TEMPLATE, for the benchmark's comparison): every use is optional.
 */
export interface SearchShell {
  /** Shows the shell with `text` added to its query and focuses it (not while the modal shows). */
  open(text?: string): void;
  /** Closes it as a reader does: focus back to the search button, the owner's `cancel` called. */
  close(): void;
  /** The shell's input while it shows, else null. */
  input(): HTMLInputElement | null;
  /** The real modal has mounted with the shell's text: the shell goes, focus stays in the modal. */
  handOff(): void;
  /** The modal's code could not be loaded: says so; Enter still searches on the search page. */
  failed(): void;
  /**
   * The search bar handles clicks and shortcuts from now on. `open` is called when the shell
   * opens (at once if it already shows), `cancel` when the reader closes it.
   */
  takeOver(owner: {open: () => void; cancel: () => void}): void;
}

export function searchShell(): SearchShell | undefined {
  return typeof window === 'undefined' ? undefined : (window as {__searchShell?: SearchShell}).__searchShell;
}

/**
 * Gives the real search input the shell's query and caret, then removes the shell. DocSearch
 * has taken the query as its initial one; a key typed since then is passed on as an input event.
 * When the box showed hits (early-search.ts), it stays on top until the modal shows its own
 * answer to the same query (at most HAND_OFF_WAIT_MS), and the modal's selection is moved to the
 * hit the box had selected: the reader sees the same hits and selection throughout.
 */
export function handOffTo(target: HTMLInputElement | null): void {
  const shell = searchShell();
  const source = shell?.input();
  if (!shell || !source) return;
  if (target) {
    const {value, selectionStart, selectionEnd} = source;
    if (target.value !== value) {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(target, value);
      target.dispatchEvent(new Event('input', {bubbles: true}));
    }
    target.focus();
    if (selectionStart !== null && selectionEnd !== null) target.setSelectionRange(selectionStart, selectionEnd);
  }
  const early = typeof window === 'undefined' ? undefined : window.__docsSearchEarly;
  const modal = target?.closest('.DocSearch-Modal');
  if (!target || !modal || !early || early.count === 0 || early.query !== source.value) {
    shell.handOff();
    return;
  }
  const selected = early.selected;
  void answered(modal).then((shown) => {
    if (shown && selected > 0 && modal.querySelectorAll('.DocSearch-Hit').length > selected) {
      for (let i = 0; i < selected; i++) {
        target.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowDown', code: 'ArrowDown', bubbles: true, cancelable: true}));
      }
    }
    shell.handOff();
  });
}

const HAND_OFF_WAIT_MS = 1500;
/** DocSearch searches again as its input takes the focus: its hits are final once it is quiet. */
const QUIET_MS = 150;

/**
 * Resolves true once the modal shows hits (or its no-results or error screen) and has not changed
 * for QUIET_MS, false after HAND_OFF_WAIT_MS.
 */
function answered(modal: Element): Promise<boolean> {
  const shows = () => modal.querySelector('.DocSearch-Hit, .DocSearch-NoResults, .DocSearch-ErrorScreen') !== null;
  return new Promise((resolve) => {
    let quiet: number | undefined;
    const settle = () => {
      window.clearTimeout(quiet);
      if (shows()) quiet = window.setTimeout(() => finish(true), QUIET_MS);
    };
    const observer = new MutationObserver(settle);
    const timer = window.setTimeout(() => finish(shows()), HAND_OFF_WAIT_MS);
    function finish(value: boolean) {
      observer.disconnect();
      window.clearTimeout(timer);
      window.clearTimeout(quiet);
      resolve(value);
    }
    observer.observe(modal, {childList: true, subtree: true, characterData: true});
    settle();
  });
}
