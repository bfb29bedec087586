import { readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { type Command, CommanderError, InvalidArgumentError } from 'commander';
import { ConfigError } from './config.ts';
import { errorMessage, isAppError } from './errors.ts';

/** The exit code of every usage error (unknown command or option, missing or bad argument), as in POSIX tools. */
export const USAGE_EXIT_CODE = 2;

/**
 * A usage error a command finds itself, after commander has parsed the line (a file that does
 * not exist, two options that exclude each other): printed as one line, exit 2.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * An option or argument parser for commander from a function that throws on a bad value:
 * commander then reports `error: option '--plan <plan>' argument 'gold' is invalid. <message>`
 * with the usage, and the command exits 2 — never a stack trace.
 */
export function cliValue<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (error) {
      throw new InvalidArgumentError(errorMessage(error));
    }
  };
}

/** A whole number from `min` to `max`, for options such as `--limit` and `--count`. */
export function wholeNumber(min: number, max: number): (value: string) => number {
  return cliValue((value) => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number < min || number > max) {
      throw new Error(`Give a whole number from ${min} to ${max}.`);
    }
    return number;
  });
}

/** Throws a UsageError unless `file` exists and can be read: checked before anything else is done. */
export async function requireReadableFile(file: string, what: string): Promise<void> {
  try {
    await access(file);
  } catch {
    throw new UsageError(`The ${what} ${file} does not exist or cannot be read.`);
  }
}

/**
 * Runs a service's command line: known failures print one clear line — usage errors exit 2
 * (commander's own, UsageError, bad configuration), failures of the work exit 1 — and only
 * unforeseen ones their stack. `cleanup` closes what a one-shot command opened; it is skipped
 * for long-running commands such as `serve`.
 */
export async function runCli(
  program: Command,
  options: { cleanup(): Promise<void>; longRunning: string[] },
): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    process.exitCode = reportFailure(error, program.name());
  } finally {
    if (!options.longRunning.includes(program.args[0] ?? '')) await options.cleanup();
  }
}

/** The `version` field of the package.json at `url`: what each service's `--version` prints. */
export function packageVersion(url: URL): string {
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

/** What the process exits with for a failure, after printing it. Exported for the tests. */
export function reportFailure(error: unknown, programName: string): number {
  // Commander has printed its message and the usage already; --help and --version end with 0.
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
  if (error instanceof UsageError) {
    process.stderr.write(`error: ${error.message}\n(${programName} --help shows the usage)\n`);
    return USAGE_EXIT_CODE;
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    return USAGE_EXIT_CODE;
  }
  if (isAppError(error)) {
    process.stderr.write(`Error (${error.code}): ${error.message}\n`);
    return 1;
  }
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}
