import { readFileSync } from 'node:fs';
import { type Command, CommanderError } from 'commander';
import { ConfigError } from './config.ts';
import { isAppError } from './errors.ts';

/**
 * Runs a service's command line: known failures print one clear line (exit 1, or 2 for bad
 * configuration), unknown ones their stack. `cleanup` closes what a one-shot command opened;
 * it is skipped for long-running commands such as `serve`.
 */
export async function runCli(
  program: Command,
  options: { cleanup(): Promise<void>; longRunning: string[] },
): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    process.exitCode = reportFailure(error);
  } finally {
    if (!options.longRunning.includes(program.args[0] ?? '')) await options.cleanup();
  }
}

/** The `version` field of the package.json at `url`: what each service's `--version` prints. */
export function packageVersion(url: URL): string {
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

function reportFailure(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  if (isAppError(error)) {
    process.stderr.write(`Error (${error.code}): ${error.message}\n`);
    return 1;
  }
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}
