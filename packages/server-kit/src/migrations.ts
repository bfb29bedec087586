import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Database, Dialect } from './database.ts';
import { errorMessage } from './errors.ts';

/** Migrations are written once and given the dialect for the few types that differ. */
export type MigrationSet = (dialect: Dialect) => Record<string, Migration>;

class InlineMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations;
  }
}

export interface MigrationReport {
  applied: string[];
}

/** Brings the schema to the latest migration; throws with the failing migration's name. */
export async function migrateToLatest<DB>(database: Database<DB>, migrations: MigrationSet): Promise<MigrationReport> {
  const db = database.db as unknown as Kysely<unknown>;
  if (database.postgresSchema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(database.postgresSchema)) {
      throw new Error(`Invalid Postgres schema name: ${database.postgresSchema}`);
    }
    await sql`create schema if not exists ${sql.id(database.postgresSchema)}`.execute(db);
  }
  const migrator = new Migrator({
    db,
    provider: new InlineMigrationProvider(migrations(database.dialect)),
    // Features land in parallel branches; a migration added "between" two applied ones still runs.
    allowUnorderedMigrations: true,
    // Kysely looks for its bookkeeping tables in every schema unless told which one: another
    // service's (or test run's) schema would otherwise pass for ours.
    ...(database.postgresSchema ? { migrationTableSchema: database.postgresSchema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error) {
    const reason = errorMessage(error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`, { cause: error });
  }
  return { applied: results.filter((result) => result.status === 'Success').map((result) => result.migrationName) };
}

/** Column type of an auto-incrementing integer primary key in each dialect. */
export function serialPrimaryKey(dialect: Dialect): 'integer' | 'serial' {
  return dialect === 'postgres' ? 'serial' : 'integer';
}
