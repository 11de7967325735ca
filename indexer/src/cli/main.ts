/**
 * The docs-indexer command line: parses flags (commander), runs one library call per command,
 * prints, and picks the exit code. The library never prints and never exits.
 * To add a subcommand: write src/commands/<name>.ts exporting a RegisterCommand, list it in COMMANDS.
 */
import {Command, CommanderError} from 'commander';
import {errorLine, exitCodeFor, type ExitCode} from '../errors.ts';
import {createProgress, isAnimated} from './progress.ts';
import type {CliContext, RegisterCommand} from './commands/context.ts';
import {registerCrawl} from './commands/crawl.ts';
import {registerPush} from './commands/push.ts';
import {registerSearch} from './commands/search.ts';

export const COMMANDS: RegisterCommand[] = [registerCrawl, registerPush, registerSearch];

export interface CliIo {
  stdout: NodeJS.WritableStream & {isTTY?: boolean};
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

/** Runs the CLI and resolves to its exit code (0, 1 or 2). */
export async function main(argv: string[], io: CliIo): Promise<0 | ExitCode> {
  const progress = createProgress(isAnimated(io.stdout, io.env), io.stderr);
  const context: CliContext = {stdout: io.stdout, stderr: io.stderr, env: io.env, progress};
  const program = new Command('docs-indexer')
    .description('Crawl a built docs site, extract DocSearch records, publish them to Algolia')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Errors are printed once, by the catch below, as one line.
      outputError: () => {},
    })
    .showSuggestionAfterError(true);
  for (const register of COMMANDS) register(program, context);
  try {
    await program.parseAsync(argv, {from: 'user'});
    return 0;
  } catch (error) {
    progress.clear();
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0; // --help, --version
      const message = error.message.replace(/^error:\s*/, '').split('\n')[0] ?? error.message;
      io.stderr.write(`docs-indexer: ${message} (see docs-indexer --help)\n`);
      return 2;
    }
    // The keys as given and as used (trimmed): a server echoing the key it got echoes the trimmed one.
    const keys = [io.env.ALGOLIA_ADMIN_API_KEY, io.env.ALGOLIA_SEARCH_API_KEY];
    io.stderr.write(`${errorLine(error, [...keys, ...keys.map((key) => key?.trim())])}\n`);
    return exitCodeFor(error);
  }
}
