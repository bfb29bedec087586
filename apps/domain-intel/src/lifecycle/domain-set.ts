import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { isPostgres } from '../db/is-postgres.ts';
import type { DB } from '../db/schema.ts';

/**
 * `feed_domains.domain` is one of `domains`. On Postgres one array parameter
 * (`domain = any($1::text[])`): a statement of 5,000 names then costs the server one bind, not
 * 5,000 parameters to parse, bind and plan. SQLite binds an `IN` list cheaply in-process.
 */
export function domainIn(db: Kysely<DB>, domains: readonly string[]): Expression<SqlBool> {
  if (isPostgres(db)) return sql<SqlBool>`domain = any(${domains}::text[])`;
  return sql<SqlBool>`domain in (${sql.join(domains)})`;
}
