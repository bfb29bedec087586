import type { Kysely, Migration } from 'kysely';

/**
 * A saved filter's optional brand term (docs/design/brand-alerts.md): the normalised label
 * (`paypal`) whose lookalikes among new registrations and drops the filter delivers; null for a
 * plain filter.
 */
export const savedFilterBrandMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('saved_filters').addColumn('brand', 'text').execute();
  },
});
