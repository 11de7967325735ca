/**
 * The docs-indexer command line: parses flags (commander), runs one library call per command,
 * prints, and picks the exit code. The library never prints and never exits.
 * To add a subcommand: write src/cli/commands/<name>.ts exporting a RegisterCommand, list it in
 * COMMANDS. A command imports the library inside its action, so that `--help` and `--version`
 * load commander and little else (indexer/bench/startup.ts measures it).
 */
import {createRequire} from 'node:module';
import {Command, CommanderError} from 'commander';
import {errorLine, exitCodeFor, maskSecrets, type ExitCode} from '../errors.ts';
import {createProgress, isAnimated} from './progress.ts';
import type {CliContext, RegisterCommand} from './commands/context.ts';
import {registerCrawl} from './commands/crawl.ts';
import {registerPush} from './commands/push.ts';
import {registerSearch} from './commands/search.ts';

export const COMMANDS: RegisterCommand[] = [registerCrawl, registerPush, registerSearch];

/** The package's version (package.json is two folders up from both src/cli/ and dist/cli/). */
export const VERSION: string = (createRequire(import.meta.url)('../../package.json') as {version: string}).version;

export interface CliIo {
  stdout: NodeJS.WritableStream & {isTTY?: boolean};
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

/** Runs the CLI and resolves to its exit code (0, 1 or 2). */
export async function main(argv: string[], io: CliIo): Promise<0 | ExitCode> {
  // Every line the CLI prints about a run is masked (the write key) before it is cut or written.
  const mask = (text: string): string => maskSecrets(text, io.env);
  const progress = createProgress(isAnimated(io.stdout, io.env), io.stderr, mask);
  const context: CliContext = {stdout: io.stdout, stderr: io.stderr, env: io.env, progress, mask};
  const program = new Command('docs-indexer')
    .description('Crawl a built docs site, extract DocSearch records, publish them to Algolia')
    .version(VERSION, '-V, --version', 'print the version of docs-indexer')
    .helpOption('-h, --help', 'print this help')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      // Only the help shown for a missing command goes here: the catch below prints one line instead.
      writeErr: () => {},
      // Errors are printed once, by the catch below, as one line.
      outputError: () => {},
    })
    .showSuggestionAfterError(true);
  for (const register of COMMANDS) register(program, context);
  const names = program.commands.map((command) => command.name()).filter((name) => name !== 'help');
  const commandList = `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
  try {
    await program.parseAsync(argv, {from: 'user'});
    return 0;
  } catch (error) {
    progress.clear();
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0; // --help, --version
      if (error.code === 'commander.help') {
        // No command (or `help NAME` for a command that does not exist): one line, not the whole help.
        const [first, second] = argv.filter((arg) => !arg.startsWith('-'));
        const problem = first === 'help' && second !== undefined ? `unknown command '${second}'` : `missing command: ${commandList}`;
        io.stderr.write(`docs-indexer: ${problem} (see docs-indexer --help)\n`);
        return 2;
      }
      const message = error.message.replace(/^error:\s*/, '').split('\n')[0] ?? error.message;
      io.stderr.write(`docs-indexer: ${message} (see docs-indexer --help)\n`);
      return 2;
    }
    // stdout closed by its reader (`| head`): the reader has what it wanted, nothing to report.
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') return 0;
    io.stderr.write(`${errorLine(error, io.env)}\n`);
    return exitCodeFor(error);
  }
}
