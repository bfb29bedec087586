import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type SqliteDatabase, SqliteDialect, sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { OwnSchemaPostgresDialect } from './postgres-introspector.ts';
import { preparingPool } from './postgres-prepared-statements.ts';
import { type BackgroundCheckpoints, startBackgroundCheckpoints } from './sqlite-checkpoints.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database<DB> {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Where it lives, for logs: the SQLite file, or the Postgres URL without password. */
  location: string;
  /** The Postgres schema every unqualified table name resolves to. */
  postgresSchema: string | undefined;
  /**
   * A serving process's SQLite file is checkpointed by a thread of its own from now on, not by the
   * commits of the event loop (sqlite-checkpoints.ts says why); the servers call it when they start
   * listening. Nothing on PostgreSQL or an in-memory database; a second call changes nothing.
   * `onError` hears it if the thread stops (the connection then checkpoints itself again).
   */
  checkpointInBackground(onError: (error: unknown) => void): void;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL when set; otherwise SQLite under `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** SQLite file name inside `dataDir` (each service keeps its own file). */
  sqliteFile: string;
  /**
   * Postgres schema of this service's tables (each service keeps its own, so several can
   * share one database; tests give each run its own). Created by the migrations runner.
   */
  postgresSchema?: string | undefined;
  poolSize?: number;
}

// int8 and numeric come back as strings from pg by default; our int8 values are
// epoch milliseconds and counters, all far below 2^53, so numbers are exact.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export function createDatabase<DB>(options: DatabaseOptions): Database<DB> {
  if (options.databaseUrl) return createPostgres<DB>(options.databaseUrl, options);
  return createSqlite<DB>(options);
}

function createSqlite<DB>(options: DatabaseOptions): Database<DB> {
  const inMemory = options.sqliteFile === ':memory:';
  const file = inMemory ? ':memory:' : path.resolve(options.dataDir, options.sqliteFile);
  if (!inMemory) mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  // Several processes (API, worker, CLI) may share the file: wait for locks instead of failing.
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  let checkpoints: BackgroundCheckpoints | undefined;
  return {
    db,
    dialect: 'sqlite',
    location: file,
    postgresSchema: undefined,
    checkpointInBackground(onError) {
      if (inMemory || checkpoints) return;
      checkpoints = startBackgroundCheckpoints(connection, file, onError);
    },
    async close() {
      // The thread's connection first: the last connection to close checkpoints the WAL and removes it.
      await checkpoints?.close();
      await db.destroy();
    },
  };
}

/**
 * Kysely's SQLite driver prepares every statement anew; on a hot path (key lookup and quota
 * counter on every API call) that costs more than running it. Reuse prepared statements by
 * SQL text, except one that is still being iterated by a streaming query.
 */
function withStatementCache(connection: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: 500 });
  return {
    close: () => connection.close(),
    prepare(text: string) {
      const cached = statements.get(text);
      if (cached && !cached.busy) return cached;
      const statement = connection.prepare(text);
      if (!cached) statements.set(text, statement);
      return statement;
    },
  };
}

function createPostgres<DB>(url: string, options: DatabaseOptions): Database<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: pgTypes,
    ...(options.postgresSchema ? { options: `-c search_path=${options.postgresSchema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<DB>({
    dialect: new OwnSchemaPostgresDialect({ pool: preparingPool(pool) }, options.postgresSchema),
  });
  const safeUrl = new URL(url);
  safeUrl.password = '';
  return {
    db,
    dialect: 'postgres',
    location: safeUrl.toString() + (options.postgresSchema ? ` (schema ${options.postgresSchema})` : ''),
    postgresSchema: options.postgresSchema,
    checkpointInBackground() {},
    close: () => db.destroy(),
  };
}

/** True when the database answers a trivial query. */
export async function isDatabaseReachable<DB>(db: Kysely<DB>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
