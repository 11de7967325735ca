#!/usr/bin/env node
// The built CLI (dist/, made by `npm run build`; `npm ci` and `npm pack` build it too).
import process from 'node:process';

// `npm run index -- crawl site/build` runs this from the indexer workspace; paths given by the
// user are relative to where they typed the command (npm's INIT_CWD).
if (process.env.npm_lifecycle_event === 'cli' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
let main;
let signals;
try {
  // The stop signals' handlers first (a small module): a SIGTERM during start-up ends the
  // process with one line, and one during a run lets the run clean up (dist/cli/signals.js).
  signals = await import('../dist/cli/signals.js');
  signals.installStopHandlers();
  ({main} = await import('../dist/cli/main.js'));
} catch (error) {
  // Only in a checkout where dist/ was never built: a packed or installed docs-indexer has it.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist')) throw error;
  process.stderr.write('docs-indexer: not built: run `npm run build --workspace docs-indexer` first\n');
  process.exit(1);
}
// A reader that stops early (`docs-indexer crawl site/build | head`) closes the pipe: the write
// that met it fails with EPIPE, the command removes its temporary files and main() resolves to 0,
// quietly, as other command line tools do (not an unhandled 'error' event and its stack trace,
// nor an exit here that would leave the temporary files behind).
// Any other write error (ENOSPC on a full disk, EIO) fails the write that met it the same way:
// the command removes its temporary files and prints "cannot write to stdout (ENOSPC)". This
// listener only keeps the stream's 'error' event from being an uncaught exception.
process.stdout.on('error', () => {});
// main() prints every error itself, as one line with secrets masked, and resolves to the exit code.
process.exitCode = await main(process.argv.slice(2), {stdout: process.stdout, stderr: process.stderr, env: process.env});
// An interrupted run has cleaned up and printed its line: requests it abandoned in flight (an
// Algolia call, a page) must not hold the process until they time out.
if (signals.wasInterrupted()) process.exit();
