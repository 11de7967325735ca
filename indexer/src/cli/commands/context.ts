import type {Command} from 'commander';
import type {Progress} from '../progress.ts';
import {OutputError} from '../../errors.ts';
import {beginRun} from '../signals.ts';

/** What a command gets from the CLI: streams, environment, progress. Commands never exit. */
export interface CliContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  progress: Progress;
  /** Masks the secrets of the environment (the write key): every message passes through it before it is cut or printed. */
  mask: (text: string) => string;
}

/** A subcommand registers itself on the program; main.ts lists them in COMMANDS. */
export type RegisterCommand = (program: Command, context: CliContext) => void;

/** How a message names a stream: stdout and stderr by name (fd 1 and 2). */
function streamName(stream: NodeJS.WritableStream): string {
  const fd = (stream as {fd?: unknown}).fd;
  return fd === 1 ? 'stdout' : fd === 2 ? 'stderr' : 'the output';
}

/**
 * Writes `text` and resolves once it is written; rejects with the stream's error (EPIPE: the
 * reader closed stdout; any other, such as ENOSPC or EIO, as an OutputError naming the stream), or as soon as `signal` fires (a reader that stopped reading must not
 * keep Ctrl-C from ending the run).
 */
export function writeAll(stream: NodeJS.WritableStream, text: string | Uint8Array, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => reject(signal?.reason as Error);
    signal?.addEventListener('abort', onAbort, {once: true});
    stream.write(text, (error) => {
      signal?.removeEventListener('abort', onAbort);
      if (!error) resolve();
      // EPIPE (the reader is gone) stays what it is: the CLI ends quietly on it.
      else if ((error as NodeJS.ErrnoException).code === 'EPIPE') reject(error);
      else reject(new OutputError(`cannot write to ${streamName(stream)} (${(error as NodeJS.ErrnoException).code ?? error.message})`, {cause: error}));
    });
  });
}

/**
 * JSON for a terminal: JSON.stringify escapes C0 controls but leaves DEL and the C1 controls
 * (U+0080-U+009F; U+009B starts an escape sequence on many terminals) raw: they are escaped too.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function seconds(startedAt: number): number {
  return Math.round((performance.now() - startedAt) / 10) / 100;
}

/**
 * Runs `run` with a signal that SIGINT (Ctrl-C), SIGTERM and SIGHUP abort (signals.ts): instead
 * of Node's default (exit at once, temporary files left behind), the command stops its work,
 * removes what it wrote and ends with `interrupted(error)`, its one-line error (exit 1). A second
 * signal ends the process at once, after removing the temporary files registered with trackTemp.
 */
export async function interruptible<T>(run: (signal: AbortSignal) => Promise<T>, interrupted: (error: unknown) => Error): Promise<T> {
  const {signal, end} = beginRun();
  try {
    if (signal.aborted) throw signal.reason;
    return await run(signal);
  } catch (error) {
    if (signal.aborted) throw interrupted(error);
    throw error;
  } finally {
    end();
  }
}
