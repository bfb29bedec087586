import { type Dialect, serialPrimaryKey } from '@repo/server-kit';
import { type Kysely, type Migration, sql } from 'kysely';
import { int8Type } from './types.ts';

export const usersMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', serialPrimaryKey(dialect), (col) => col.primaryKey())
      .addColumn('user_name', 'text', (col) => col.notNull().unique())
      .addColumn('full_name', 'text', (col) => col.notNull())
      .addColumn('email', 'text', (col) => col.notNull().unique())
      .addColumn('password_hash', 'text', (col) => col.notNull())
      .addColumn('country_iso', 'text')
      .addColumn('gender', 'text')
      .addColumn('joined', int8Type(dialect), (col) => col.notNull())
      .addColumn('friends_visibility', 'text', (col) => col.notNull().defaultTo(sql`'public'`))
      .execute();
  },
});
