import type {Command} from 'commander';
import type {Progress} from '../progress.ts';

/** What a command gets from the CLI: streams, environment, progress. Commands never exit. */
export interface CliContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  progress: Progress;
}

/** A subcommand registers itself on the program; main.ts lists them in COMMANDS. */
export type RegisterCommand = (program: Command, context: CliContext) => void;

export function writeAll(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

export function seconds(startedAt: number): number {
  return Math.round((performance.now() - startedAt) / 10) / 100;
}
