#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so the workspace needs no build step.
import process from 'node:process';
import {register} from 'tsx/esm/api';

register();
// `npm run index -- crawl site/build` runs this from the indexer workspace; paths given by the
// user are relative to where they typed the command (npm's INIT_CWD).
if (process.env.npm_lifecycle_event === 'cli' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
try {
  const {main} = await import('../src/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
} catch (error) {
  // Never a stack trace: one line, and never a key.
  const key = process.env.ALGOLIA_ADMIN_API_KEY;
  let message = error instanceof Error ? error.message : String(error);
  // The key as given and as used (trimmed).
  for (const secret of [key, key?.trim()]) if (secret) message = message.split(secret).join('***');
  process.stderr.write(`docs-indexer: unexpected error: ${message.split('\n')[0]}\n`);
  process.exitCode = 1;
}
