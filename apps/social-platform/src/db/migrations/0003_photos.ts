import { type Dialect, serialPrimaryKey } from '@repo/server-kit';
import { type Kysely, type Migration, sql } from 'kysely';
import { int8Type } from './types.ts';

/** Photos (album photos and profile pictures), their stored files, and the user's picture. */
export const photosMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('photos')
      .addColumn('id', serialPrimaryKey(dialect), (col) => col.primaryKey())
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('visibility', 'text', (col) => col.notNull().defaultTo(sql`'public'`))
      .addColumn('created_at', int8Type(dialect), (col) => col.notNull())
      .execute();
    await db.schema.createIndex('photos_owner_idx').on('photos').columns(['owner_id', 'kind', 'id']).execute();
    await db.schema
      .createTable('photo_files')
      .addColumn('photo_id', 'integer', (col) => col.notNull().references('photos.id').onDelete('cascade'))
      .addColumn('size', 'text', (col) => col.notNull())
      .addColumn('storage_key', 'text', (col) => col.notNull().unique())
      .addColumn('content_type', 'text', (col) => col.notNull())
      .addColumn('width', 'integer', (col) => col.notNull())
      .addColumn('height', 'integer', (col) => col.notNull())
      .addColumn('bytes', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('photo_files_pk', ['photo_id', 'size'])
      .execute();
    await db.schema
      .alterTable('users')
      .addColumn('picture_photo_id', 'integer', (col) => col.references('photos.id').onDelete('set null'))
      .execute();
  },
});
