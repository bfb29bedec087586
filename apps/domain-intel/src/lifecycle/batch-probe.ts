import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { batchAtOrAfter } from './drop-plan.ts';

const HOUR = 3_600_000;
/** How long before its time a registry's batch has been seen to run: runs this close to the batch probe for it. */
export const EARLY_BATCH_PROBE_MS = 3 * HOUR;

/** A pending-delete row as the re-check run reads it. */
export interface ProbeCandidate {
  domain: string;
  tld: string;
  status: string;
  status_since: number;
  check_failures: number;
  /** The forecast published for the row (recorded with its drop: drop-forecasts.ts). */
  expected_drop_at: number | null;
  expected_drop_earliest: number | null;
  expected_drop_latest: number | null;
}

/** The feed_domains columns of a candidate. */
export const CANDIDATE_COLUMNS = [
  'domain',
  'tld',
  'status',
  'status_since',
  'check_failures',
  'expected_drop_at',
  'expected_drop_earliest',
  'expected_drop_latest',
] as const satisfies readonly (keyof ProbeCandidate)[];

/** What one look at a candidate did (rdap-recheck's outcome: 'dropped', 'unchanged', 'unknown', …). */
export type Look = (candidate: ProbeCandidate) => Promise<string>;

/**
 * The registry purges a day's names in one batch, so one name of the batch tells about all of
 * them: before the batch's planned time, one look at a name planned for it finds it purged if the
 * batch ran early, and then the whole batch falls due now (verified within the hour instead of at
 * the planned time, hours after the purge). One look a run in the hours before the batch. A late
 * batch needs no probe: its checks, made at the planned time, look again hourly (postponing them
 * all on one name's word cost more drops past the hour than the lookups it saved, in rdap-plan).
 */
export async function probeBatch(
  db: Kysely<DB>,
  input: { tld: string; now: number; batchTimeOfDay: number; look: Look },
): Promise<number> {
  const { tld, now, batchTimeOfDay, look } = input;
  const columns = CANDIDATE_COLUMNS;
  let looks = 0;

  const next = batchAtOrAfter(now + 1, batchTimeOfDay);
  if (next - now <= EARLY_BATCH_PROBE_MS) {
    const canary = await db
      .selectFrom('feed_domains')
      .select(columns)
      .where('tld', '=', tld)
      .where('status', '=', 'pending-delete')
      .where('next_check_at', '=', next)
      .orderBy('domain')
      .limit(1)
      .executeTakeFirst();
    if (canary) {
      looks += 1;
      if ((await look(canary)) === 'dropped') {
        await db
          .updateTable('feed_domains')
          .set({ next_check_at: now })
          .where('tld', '=', tld)
          .where('status', '=', 'pending-delete')
          .where('next_check_at', '=', next)
          .execute();
      }
    }
  }

  return looks;
}
