import { type Kysely, PostgresAdapter } from 'kysely';

/** Whether `db` (or a transaction of it) talks to PostgreSQL, for the few statements written per engine. */
export function isPostgres<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
