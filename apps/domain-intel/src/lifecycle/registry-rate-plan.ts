import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { PIPELINE_STATUSES } from './states.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The registry host a TLD's lookups go to and the rate background work may use there now (the RDAP
 * engine's `registryRateOf`: the host's effective rate, lowered after 429s, less the interactive share).
 */
export type RegistryRateOf = (tld: string) => Promise<{ host: string; perSecond: number } | null>;

/** What one run's due drop checks ask of one registry host. */
export interface RegistryRateEstimate {
  host: string;
  tlds: string[];
  /** Lookups a second the host must take to verify every due drop within an hour of its purge. */
  neededPerSecond: number;
  /** What the run may use there: the host's effective rate less RDAP_INTERACTIVE_SHARE. */
  allowedPerSecond: number;
  /** Due purge checks (names whose planned purge has passed). */
  purgeChecks: number;
}

/** A due candidate in the run's order (earliest expected drop first); `purgeCheck`: its planned purge has passed. */
export interface DueCheck {
  expectedDropAt: number;
  purgeCheck: boolean;
  /** When a check the run looks ahead to falls due (it is made no earlier); absent: due now. */
  dueAt?: number;
}

/**
 * The rate that verifies every due purge within an hour of it: the run makes its lookups in
 * order of expected drop, so the i-th purge check, due by its purge + 1 h (or by the end of the
 * run's window, if sooner), needs i lookups in that time (from when it falls due, for a check the
 * run looks ahead to). Purges already more than an hour old still take their place in the queue
 * but set no pace (no rate can make them in time).
 */
export function neededRate(due: readonly DueCheck[], now: number, windowEndsAt?: number): number {
  let needed = 0;
  due.forEach((check, i) => {
    if (!check.purgeCheck) return;
    const by = Math.min(check.expectedDropAt + HOUR, windowEndsAt ?? Number.POSITIVE_INFINITY);
    if (by <= now) return;
    // A check looked ahead to is made from when it falls due: the lookups before it count in that time.
    const from = Math.max(now, check.dueAt ?? now);
    needed = Math.max(needed, (i + 1) / (Math.max(by - from, MINUTE) / 1000));
  });
  return needed;
}

/**
 * Per registry host (TLDs that share one, as .com and .net share Verisign's, share its rate):
 * what this run's due drop checks need, against what the host is allowed.
 */
export async function estimateRegistryRates(
  db: Kysely<DB>,
  input: {
    tlds: readonly string[];
    now: number;
    windowEndsAt?: number;
    /** How far ahead the run takes purge checks (RecheckOptions.lookAheadMs). */
    lookAheadMs?: number;
    registryRateOf: RegistryRateOf;
  },
): Promise<RegistryRateEstimate[]> {
  const { now } = input;
  const ahead = now + (input.lookAheadMs ?? 0);
  const byHost = new Map<string, { tlds: string[]; perSecond: number; due: DueCheck[] }>();
  for (const tld of input.tlds) {
    const registry = await input.registryRateOf(tld);
    if (!registry) continue;
    // The due candidates the run takes before and with the purge checks: those whose expected
    // drop has passed, and the purge checks it looks ahead to.
    const rows = await db
      .selectFrom('feed_domains')
      .select(['status', 'expected_drop_at', 'next_check_at'])
      .where('tld', '=', tld)
      .where('status', 'in', [...PIPELINE_STATUSES])
      .where((where) =>
        where.or([
          where.and([where('next_check_at', '<=', now), where('expected_drop_at', '<=', now)]),
          where.and([
            where('status', '=', 'pending-delete'),
            where('next_check_at', '>', now),
            where('next_check_at', '<=', ahead),
            where('expected_drop_at', '<=', ahead),
          ]),
        ]),
      )
      .execute();
    const host = byHost.get(registry.host) ?? { tlds: [], perSecond: registry.perSecond, due: [] };
    host.tlds.push(tld);
    for (const row of rows) {
      const dueAt = Number(row.next_check_at);
      host.due.push({
        expectedDropAt: Number(row.expected_drop_at),
        purgeCheck: row.status === 'pending-delete',
        ...(dueAt > now ? { dueAt } : {}),
      });
    }
    byHost.set(registry.host, host);
  }
  return [...byHost].map(([host, { tlds, perSecond, due }]) => {
    due.sort((a, b) => a.expectedDropAt - b.expectedDropAt);
    return {
      host,
      tlds,
      neededPerSecond: neededRate(due, now, input.windowEndsAt),
      allowedPerSecond: perSecond,
      purgeChecks: due.filter((check) => check.purgeCheck).length,
    };
  });
}
