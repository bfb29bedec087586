import type { Compilable, Kysely } from 'kysely';
import { keepPrepared } from './postgres-prepared-statements.ts';

/**
 * A query built and compiled once, then run with new parameter values. For the lookups on
 * every API call (token, user) the query builder costs about twice the query itself; this
 * pays it once at start-up. `build` receives distinct placeholder values and must use each
 * exactly once, in order, which is checked here. On PostgreSQL the statement is also prepared
 * once per connection (a named statement: see postgres-prepared-statements.ts).
 */
export function prepareQuery<DB, Row, Args extends unknown[]>(
  db: Kysely<DB>,
  placeholders: [...Args],
  build: (...args: Args) => Compilable<Row>,
): PreparedQuery<DB, Row, Args> {
  const compiled = build(...placeholders).compile();
  const matches =
    compiled.parameters.length === placeholders.length &&
    compiled.parameters.every((parameter, index) => parameter === placeholders[index]);
  if (!matches) throw new Error(`Prepared query does not take its parameters in order: ${compiled.sql}`);
  keepPrepared(compiled.sql);
  const on =
    (executor: Kysely<DB>) =>
    async (...args: Args): Promise<Row[]> =>
      (await executor.executeQuery<Row>({ ...compiled, parameters: args })).rows;
  return Object.assign(on(db), { on });
}

/** A prepared query: run it on its database, or `on` another executor of it (a transaction). */
export interface PreparedQuery<DB, Row, Args extends unknown[]> {
  (...args: Args): Promise<Row[]>;
  on(executor: Kysely<DB>): (...args: Args) => Promise<Row[]>;
}
