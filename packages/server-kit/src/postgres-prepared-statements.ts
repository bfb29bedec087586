import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/** SQL text of each query compiled once by prepareQuery → the name PostgreSQL keeps it under. */
const statementNames = new Map<string, string>();

/**
 * Marks a query's SQL as one that runs on hot paths (prepareQuery calls this): on PostgreSQL each
 * connection then parses and plans it once, as a named prepared statement, and later runs only
 * bind and execute it. The name depends on the text alone, so every pool and connection agrees on it.
 */
export function keepPrepared(sql: string): void {
  if (!statementNames.has(sql)) statementNames.set(sql, `prepared_${statementNames.size + 1}`);
}

/**
 * The pool as Kysely sees it: a statement marked by keepPrepared goes to pg as a named statement
 * (pg sends its Parse once per connection, then Bind and Execute only); every other statement
 * as before, unnamed. For the quota upsert this about halved the PostgreSQL backend's CPU per
 * statement (no parse and plan) and cut the driver's own work (no Parse message to write).
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  // Kysely keys its connection objects by client, so each pg client keeps one wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PreparingClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = new PreparingClient(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

class PreparingClient implements PostgresPoolClient {
  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') return this.client.query(sqlOrCursor as never);
    const name = statementNames.get(sqlOrCursor);
    const values = parameters as unknown[];
    const result = name
      ? this.client.query({ name, text: sqlOrCursor, values })
      : this.client.query(sqlOrCursor, values);
    return result as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    this.client.release();
  }
}
