import type { ChildProcess } from 'node:child_process';

/** Where a test's own database and files are, as a child process of the test must be told. */
export interface ChildDatabase {
  dataDir: string;
  /** Absent or empty on SQLite (the file under dataDir). */
  databaseUrl?: string | undefined;
  /** The test run's own PostgreSQL schema, when there is one. */
  postgresSchema?: string | null | undefined;
}

/**
 * The environment a child process (a worker, a sender, a lease holder the test will kill) needs to
 * open the test's database and DATA_DIR, and nothing of the test runner's own environment besides PATH.
 */
export function childProcessEnv({ dataDir, databaseUrl, postgresSchema }: ChildDatabase): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(postgresSchema ? { POSTGRES_SCHEMA: postgresSchema } : {}),
  };
}

/** The first line the child prints to stdout that matches `pattern`; fails if it exits first. */
export async function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  let buffered = '';
  for await (const chunk of child.stdout!) {
    buffered += chunk.toString();
    const line = buffered.split('\n').find((candidate) => pattern.test(candidate));
    if (line) return line;
  }
  throw new Error(`The process exited before printing ${pattern}`);
}
