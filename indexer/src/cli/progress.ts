/**
 * Progress for a person at a terminal: one line redrawn in place on stderr. Nothing is drawn
 * when stdout is not a TTY or CI is set (logs stay clean; a failure stays one line).
 */
import type {CrawlEvent} from '../crawl/crawl.ts';

export interface Progress {
  crawlEvent(event: CrawlEvent): void;
  step(message: string): void;
  /** Erases the progress line (before a result or an error is printed). */
  clear(): void;
}

export function isAnimated(stdout: {isTTY?: boolean}, env: NodeJS.ProcessEnv): boolean {
  return Boolean(stdout.isTTY) && !env.CI;
}

const SILENT: Progress = {crawlEvent: () => {}, step: () => {}, clear: () => {}};

/**
 * `mask` (the CLI's secret masking) runs on each line before it is cut to the terminal's 120
 * characters: a cut never falls inside a secret.
 */
export function createProgress(animated: boolean, stderr: NodeJS.WritableStream, mask: (text: string) => string = (text) => text): Progress {
  if (!animated) return SILENT;
  let shown = false;
  let last = 0;
  const draw = (line: string, force = false): void => {
    const now = Date.now();
    if (!force && now - last < 80) return;
    last = now;
    stderr.write(`\r\x1b[2K${mask(line).slice(0, 120)}`);
    shown = true;
  };
  return {
    crawlEvent(event) {
      if (event.type === 'start') draw(`crawling ${event.source} (${event.mode})…`, true);
      else if (event.type === 'page' || event.type === 'skip') {
        draw(`crawling: ${event.done}${event.total ? `/${event.total}` : ''} pages`);
      } else if (event.type === 'retry') draw(`retrying ${event.url} (attempt ${event.attempt + 1}): ${event.error}`, true);
    },
    step(message) {
      draw(message, true);
    },
    clear() {
      if (shown) stderr.write('\r\x1b[2K');
      shown = false;
    },
  };
}
