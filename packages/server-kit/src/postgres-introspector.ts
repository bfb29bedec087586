import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

interface ColumnRow {
  table: string;
  table_type: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: string | null;
  column_description: string | null;
}

/**
 * Kysely's own Postgres introspector (which its Migrator calls on every run) reads the tables of
 * every schema in the database and calls `has_schema_privilege(<name>)` on each: when another
 * schema is dropped between its catalogue scan and that call, the migration fails with
 * `schema "<other>" does not exist`. That is what made parallel test runs fail now and then, and
 * a production database shared with another service would fail the same way (kysely#1537).
 * This one reads only the service's own schema (`search_path`'s first schema when none is given).
 */
export class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string | undefined,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const result = await sql<SchemaMetadata>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return result.rows;
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const schema = this.schema === undefined ? sql`current_schema()` : sql`${this.schema}`;
    const result = await sql<ColumnRow>`
      select c.relname as "table", c.relkind as table_type, a.attname as "column", typ.typname as "type",
             dtns.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default,
             pg_get_serial_sequence(c.oid::regclass::text, a.attname) as auto_incrementing,
             col_description(a.attrelid, a.attnum) as column_description
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on a.attrelid = c.oid
      join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
      join pg_catalog.pg_type typ on a.atttypid = typ.oid
      join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
      where ns.nspname = ${schema} and c.relkind in ('r', 'v', 'p') and a.attnum >= 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(this.db);
    const schemaName =
      this.schema ?? (await sql<{ name: string }>`select current_schema() as name`.execute(this.db)).rows[0]?.name;
    const tables = new Map<
      string,
      { name: string; isView: boolean; schema?: string; columns: TableMetadata['columns'][number][] }
    >();
    for (const row of result.rows) {
      if (
        !options.withInternalKyselyTables &&
        (row.table === DEFAULT_MIGRATION_TABLE || row.table === DEFAULT_MIGRATION_LOCK_TABLE)
      ) {
        continue;
      }
      let table = tables.get(row.table);
      if (!table) {
        table = {
          name: row.table,
          isView: row.table_type === 'v',
          ...(schemaName ? { schema: schemaName } : {}),
          columns: [],
        };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        isAutoIncrementing: row.auto_incrementing !== null,
        hasDefaultValue: row.has_default,
        ...(row.column_description === null ? {} : { comment: row.column_description }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** Kysely's Postgres dialect with introspection limited to the service's own schema. */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly schema: string | undefined,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db, this.schema);
  }
}
