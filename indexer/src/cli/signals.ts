/**
 * The stop signals of a docs-indexer process: SIGINT (Ctrl-C), SIGTERM (a `kill`, a CI cancel)
 * and SIGHUP (the terminal closed, an SSH session dropped). Node's default for each ends the
 * process at once, leaving temporary files (and, for `push`, a temporary index) behind; these
 * handlers replace it.
 *
 * bin/docs-indexer.js installs them before it loads anything else, so a signal during start-up
 * is handled too. Then:
 * - while a run is going (`interruptible` in commands/context.ts), the first signal aborts the
 *   run's AbortSignal: the run stops, removes what it wrote and ends with its one line;
 * - outside a run (start-up, a command that writes nothing), or on a second signal, the process
 *   ends at once: every temporary file still registered (trackTemp) is removed first,
 *   synchronously, then one line is printed, exit 1.
 *
 * This module imports nothing but node: it loads in a few milliseconds.
 */
import {rmSync} from 'node:fs';
import process from 'node:process';

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

interface Handlers {
  controller: AbortController;
  /** Runs going on (nested `interruptible` calls share the signal). */
  runs: number;
  uninstall(): void;
}

let handlers: Handlers | undefined;
/** Temporary files and folders of the runs going on: removed on an immediate exit. */
const temps = new Set<string>();

/** Registers a temporary file or folder, to be removed if the process must end at once; returns its unregistration. */
export function trackTemp(file: string): () => void {
  temps.add(file);
  return () => temps.delete(file);
}

function removeTempsSync(): void {
  for (const file of temps) {
    try {
      rmSync(file, {recursive: true, force: true});
    } catch {
      // nothing more can be done while the process ends
    }
  }
  temps.clear();
}

/**
 * Installs the handlers (once per process); returns what removes them (a no-op when they were
 * already installed: the bin keeps them until the process ends).
 */
export function installStopHandlers(): () => void {
  if (handlers) return () => {};
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    const state = handlers;
    if (state && state.runs > 0 && !state.controller.signal.aborted) {
      state.controller.abort(new Error(`interrupted (${name})`));
      return;
    }
    removeTempsSync();
    const again = state?.controller.signal.aborted ? ' again' : '';
    process.stderr.write(`docs-indexer: interrupted${again} (${name}); stopped at once\n`);
    process.exit(1);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  const state: Handlers = {
    controller,
    runs: 0,
    uninstall: () => {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
      if (handlers === state) handlers = undefined;
    },
  };
  handlers = state;
  return state.uninstall;
}

/**
 * Marks a run as going on and gives its AbortSignal (aborted at the first stop signal, also one
 * that came before the run started); call the returned `end` when the run is over.
 */
export function beginRun(): {signal: AbortSignal; end(): void} {
  const uninstall = installStopHandlers();
  const state = handlers as Handlers;
  state.runs += 1;
  let ended = false;
  return {
    signal: state.controller.signal,
    end: () => {
      if (ended) return;
      ended = true;
      state.runs -= 1;
      uninstall();
    },
  };
}

/**
 * Whether a stop signal interrupted a run of this process. The bin then ends the process as soon
 * as the run has cleaned up, rather than when requests abandoned in flight time out.
 */
export function wasInterrupted(): boolean {
  return handlers?.controller.signal.aborted ?? false;
}
