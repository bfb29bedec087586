import type { Clock } from '@repo/server-kit';
import { type Insertable, type InsertQueryBuilder, type InsertResult, type Kysely, sql } from 'kysely';
import { isPostgres } from '../db/is-postgres.ts';
import type { DB, FeedDomainTable } from '../db/schema.ts';
import { domainIn } from './domain-set.ts';
import { type LabelFacts, labelFacts } from './label-facts.ts';
import { expectedDropAt } from './recheck-schedule.ts';
import { isPipelineStatus, NEW_STATUS, type StoredStatus } from './states.ts';
import { recordTransitions, type TransitionRecord } from './transitions.ts';

/** One line of a snapshot diff (the zones module's `diffSnapshots` yields these). */
export interface ZoneChange {
  name: string;
  change: 'removed' | 'added';
}

export interface ZoneDiffResult {
  tld: string;
  fromDate: string;
  toDate: string;
  status: 'applied' | 'already_applied';
  removed: number;
  added: number;
  /** Transitions recorded by this run (a resumed run counts only the ones it made). */
  transitions: number;
  /** Names this run recorded as new registrations (a resumed run counts only the ones it wrote). */
  registered: number;
  /** New-registration rows of this TLD past their retention, deleted after the run. */
  expired: number;
}

/** How long a name stays `new` (from the date of the zone file it appeared in) when no setting says. */
export const DEFAULT_NEW_RETENTION_DAYS = 30;

export interface ZoneDiffOptions {
  /** Days a new registration is kept after its first zone file; then its row is deleted. */
  newRetentionDays?: number;
}

/** Changes read and applied per transaction. */
const CHUNK = 5000;

/**
 * Applies the zone diff of one TLD from `fromDate` to `toDate` to the lifecycle: a removed
 * name starts (or restarts) its way as `left-zone`; an added name that was on the way ends
 * it as `returned`, or as `re-registered` when it had already dropped; an added name with no
 * row (it was not on its way out, so it was not in yesterday's zone) is a new registration,
 * `new` with its first zone file's date in `zone_date`. Names of a TLD's first snapshot are never
 * diffed (there is no day before), so they are never new. New rows older than the retention are
 * deleted after each run, which bounds them to about that many days of registrations.
 *
 * Idempotent and resumable: each row remembers the snapshot date of the last zone evidence
 * applied to it, so a re-run skips what an interrupted run already wrote, and a completed
 * diff is recorded in `zone_diff_runs` so applying it again is a no-op.
 */
export async function applyZoneDiff(
  db: Kysely<DB>,
  clock: Clock,
  diff: { tld: string; fromDate: string; toDate: string; changes: AsyncIterable<ZoneChange> },
  onProgress: (processed: number) => void = () => {},
  options: ZoneDiffOptions = {},
): Promise<ZoneDiffResult> {
  const { tld, fromDate, toDate } = diff;
  const result: ZoneDiffResult = {
    tld,
    fromDate,
    toDate,
    status: 'applied',
    removed: 0,
    added: 0,
    transitions: 0,
    registered: 0,
    expired: 0,
  };
  const retentionDays = options.newRetentionDays ?? DEFAULT_NEW_RETENTION_DAYS;
  const done = await db
    .selectFrom('zone_diff_runs')
    .select(['removed', 'added'])
    .where('tld', '=', tld)
    .where('to_date', '=', toDate)
    .executeTakeFirst();
  if (done) {
    const expired = await expireNewRegistrations(db, tld, toDate, retentionDays);
    return { ...result, status: 'already_applied', removed: done.removed, added: done.added, expired };
  }

  let chunk: ZoneChange[] = [];
  const flush = async () => {
    const applied = await applyChunk(db, clock.now(), { tld, fromDate, toDate }, chunk);
    result.transitions += applied.transitions;
    result.registered += applied.registered;
    for (const change of chunk) result[change.change] += 1;
    onProgress(result.removed + result.added);
    chunk = [];
  };
  for await (const change of diff.changes) {
    chunk.push(change);
    if (chunk.length >= CHUNK) await flush();
  }
  if (chunk.length > 0) await flush();

  await db
    .insertInto('zone_diff_runs')
    .values({
      tld,
      to_date: toDate,
      from_date: fromDate,
      removed: result.removed,
      added: result.added,
      completed_at: clock.now(),
    })
    .onConflict((conflict) => conflict.columns(['tld', 'to_date']).doNothing())
    .execute();
  result.expired = await expireNewRegistrations(db, tld, toDate, retentionDays);
  return result;
}

/**
 * Deletes the TLD's `new` rows first seen more than `days` before `toDate` (the zone file's
 * date, not the clock, so a late or replayed day keeps the same window). Such a name is then
 * like any other name in the zone: it has no row until it leaves.
 */
export async function expireNewRegistrations(
  db: Kysely<DB>,
  tld: string,
  toDate: string,
  days: number,
): Promise<number> {
  const cutoff = new Date(Date.parse(`${toDate}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
  const deleted = await db
    .deleteFrom('feed_domains')
    .where('status', '=', NEW_STATUS)
    .where('tld', '=', tld)
    .where('zone_date', '<', cutoff)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** Feed rows per multi-row upsert on SQLite: ~18 parameters each, under its parameter limit. */
const ROWS_PER_STATEMENT = 1000;

/**
 * Applies one chunk of changes with a handful of set-based statements (one read, multi-row
 * upserts, one UPDATE per target status, multi-row transition inserts) in one transaction:
 * a `.com` day of 200,000 changes is a few hundred statements, not 400,000.
 */
async function applyChunk(
  db: Kysely<DB>,
  now: number,
  diff: { tld: string; fromDate: string; toDate: string },
  changes: ZoneChange[],
): Promise<{ transitions: number; registered: number }> {
  const existing = await db
    .selectFrom('feed_domains')
    .select(['domain', 'status', 'zone_date'])
    .where(
      domainIn(
        db,
        changes.map((change) => change.name),
      ),
    )
    .execute();
  const rows = new Map(existing.map((row) => [row.domain, row]));
  const evidenceKey = `zone:${diff.tld}:${diff.toDate}`;
  const detail = { tld: diff.tld, from_date: diff.fromDate, to_date: diff.toDate };

  const leaving: string[] = [];
  const entering: string[] = [];
  const ending = new Map<StoredStatus, string[]>([
    ['returned', []],
    ['re-registered', []],
  ]);
  const transitions: TransitionRecord[] = [];
  for (const { name, change } of changes) {
    const row = rows.get(name);
    // Evidence of this snapshot (or a later one) is already on the row: a re-run.
    if (row?.zone_date && row.zone_date >= diff.toDate) continue;
    if (change === 'removed') {
      if (row && (isPipelineStatus(row.status) || row.status === 'dropped')) continue;
      leaving.push(name);
      const from = row ? (row.status as StoredStatus) : 'in-zone';
      transitions.push({ domain: name, from, to: 'left-zone', at: now, evidence: 'zone_removed', evidenceKey, detail });
      continue;
    }
    if (!row) {
      // No row: the name was in no state of the way out, so yesterday's zone did not have it
      // (a name that left and came back has its left-zone row and ends as `returned` below).
      entering.push(name);
      continue;
    }
    const to: StoredStatus | null = isPipelineStatus(row.status)
      ? 'returned'
      : row.status === 'dropped'
        ? 're-registered'
        : null;
    if (!to) continue;
    ending.get(to)!.push(name);
    const from = row.status as StoredStatus;
    transitions.push({ domain: name, from, to, at: now, evidence: 'zone_added', evidenceKey, detail });
  }

  // The same values for every name that left the zone today: the upsert can set constants.
  const lifecycle = {
    status: 'left-zone',
    status_since: now,
    left_zone_at: now,
    zone_date: diff.toDate,
    expected_drop_at: expectedDropAt('left-zone', now),
    next_check_at: now,
    check_failures: 0,
    last_checked_at: null,
    dropped_at: null,
    verified_at: null,
    enrich_due_at: now,
    updated_at: now,
  };
  // A new registration is not on the way out: nothing to check, enrich or expect.
  const registration = {
    status: NEW_STATUS,
    status_since: now,
    left_zone_at: null,
    zone_date: diff.toDate,
    expected_drop_at: null,
    next_check_at: null,
    check_failures: 0,
    last_checked_at: null,
    dropped_at: null,
    verified_at: null,
    enrich_due_at: null,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await upsertRows(trx, leaving, lifecycle, 'restart');
    // The first zone evidence of a name that has none: a row written since (a re-run) is kept.
    await upsertRows(trx, entering, registration, 'keep');
    for (const [to, names] of ending) {
      for (let start = 0; start < names.length; start += ROWS_PER_STATEMENT) {
        await trx
          .updateTable('feed_domains')
          .set({
            status: to,
            status_since: now,
            zone_date: diff.toDate,
            next_check_at: null,
            expected_drop_at: null,
            enrich_due_at: null,
            updated_at: now,
          })
          .where(domainIn(trx, names.slice(start, start + ROWS_PER_STATEMENT)))
          .execute();
      }
    }
    await recordTransitions(trx, transitions);
  });
  return { transitions: transitions.length, registered: entering.length };
}

type RowLifecycle = Omit<Insertable<FeedDomainTable>, 'domain' | keyof LabelFacts>;

/**
 * Inserts the names with the same lifecycle values (`left-zone` rows of names that left the zone,
 * `new` rows of names that entered it); on conflict `restart` sets those values on the row the
 * name has, `keep` leaves it. Every row gets the same lifecycle values, so on Postgres the per-name columns travel as five
 * arrays (`INSERT … SELECT … FROM unnest(…)`) and the rest as single parameters: one statement
 * of a few dozen parameters per chunk instead of multi-row VALUES of 18 parameters a row.
 */
async function upsertRows(
  trx: Kysely<DB>,
  names: readonly string[],
  lifecycle: RowLifecycle,
  onConflict: 'restart' | 'keep',
): Promise<void> {
  if (names.length === 0) return;
  const upsert = (insert: InsertQueryBuilder<DB, 'feed_domains', InsertResult>) =>
    insert
      .onConflict((conflict) =>
        onConflict === 'restart'
          ? conflict.column('domain').doUpdateSet(lifecycle)
          : conflict.column('domain').doNothing(),
      )
      .execute();
  if (!isPostgres(trx)) {
    for (let start = 0; start < names.length; start += ROWS_PER_STATEMENT) {
      await upsert(
        trx
          .insertInto('feed_domains')
          .values(
            names
              .slice(start, start + ROWS_PER_STATEMENT)
              .map((name) => ({ domain: name, ...labelFacts(name), ...lifecycle })),
          ),
      );
    }
    return;
  }
  const facts = names.map(labelFacts);
  const constants = Object.entries(lifecycle) as [keyof RowLifecycle, unknown][];
  await upsert(
    trx
      .insertInto('feed_domains')
      .columns(['domain', 'tld', 'label', 'length', 'has_hyphen', 'has_digit', ...constants.map(([column]) => column)])
      .expression(
        sql`select v.domain, v.tld, v.label, v.length, v.has_hyphen, v.has_digit, ${sql.join(
          constants.map(([, value]) => (value === null ? sql`null` : sql`${value}`)),
        )} from unnest(${names}::text[], ${facts.map((f) => f.tld)}::text[], ${facts.map((f) => f.label)}::text[], ${facts.map(
          (f) => f.length,
        )}::int[], ${facts.map((f) => f.has_hyphen)}::int[], ${facts.map((f) => f.has_digit)}::int[]) as v(domain, tld, label, length, has_hyphen, has_digit)`,
      ),
  );
}
