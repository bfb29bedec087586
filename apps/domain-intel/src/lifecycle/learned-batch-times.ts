import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * The one owner of `rdap_batch_times`: each TLD's batch time as the lifecycle last learned it
 * from the registry's answers, read back when a process starts planning so a restart does not
 * plan without it until five pending-delete answers agree again.
 */
export class LearnedBatchTimes {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async load(): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('rdap_batch_times').select(['tld', 'time_of_day']).execute();
    return new Map(rows.map((row) => [row.tld, Number(row.time_of_day)]));
  }

  async save(tld: string, timeOfDay: number): Promise<void> {
    const learnedAt = this.clock.now();
    await this.db
      .insertInto('rdap_batch_times')
      .values({ tld, time_of_day: timeOfDay, learned_at: learnedAt })
      .onConflict((conflict) => conflict.column('tld').doUpdateSet({ time_of_day: timeOfDay, learned_at: learnedAt }))
      .execute();
  }
}
