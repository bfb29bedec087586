import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import PQueue from 'p-queue';
import type { DB } from '../db/schema.ts';
import type { RdapClient, RdapLookup } from '../rdap/types.ts';
import { type BatchDay, batchSpread } from './batch-calendar.ts';
import { CANDIDATE_COLUMNS, type ProbeCandidate, probeBatch } from './batch-probe.ts';
import type { BatchTimeLearner } from './batch-time-learner.ts';
import { recordForecast } from './drop-forecasts.ts';
import {
  type DeletionTimeline,
  planDropLookups,
  registryStatusSince,
  STANDARD_TIMELINE,
  statusSince,
} from './drop-plan.ts';
import { judgeRdapAnswer } from './rdap-evidence.ts';
import { retryAfterFailure } from './recheck-schedule.ts';
import { isPipelineStatus, PIPELINE_STATUSES, type PipelineStatus } from './states.ts';
import { applyTransition } from './transitions.ts';

export interface RecheckOptions {
  tlds: readonly string[];
  /** Most RDAP lookups per TLD in one run: each registry's budget per hourly run (a number, or one per TLD). */
  perTldBudget: number | ((tld: string) => number);
  /** Lookups in flight per TLD (the RDAP client also throttles per server). */
  perTldConcurrency: number;
  /** Days of redemption and of pending delete at the registries (default: the gTLD standard 30 and 5). */
  timeline?: Omit<DeletionTimeline, 'batchTimeOfDay'>;
  /** When each TLD's registry runs its daily deletion batch (pending delete, purge), ms after 00:00 UTC. */
  batchTimes?: Readonly<Record<string, number>>;
  /** Batch times learned from the registries' answers, for the TLDs `batchTimes` leaves out. */
  learnedBatchTimes?: BatchTimeLearner;
  /** Each TLD's recent batch calendar (batch-calendar.ts): the drop windows' spread around its batch time. */
  batchDays?: ReadonlyMap<string, readonly BatchDay[]>;
  /** Wall-clock time (Date.now() epoch ms) after which no lookup is started or continued. */
  deadline?: number;
  /**
   * Purge checks falling due this long after the run's start are taken too, each looked at when
   * it falls due (after every candidate already due): a run that starts before the registry's
   * batch spends the rest of its window on the purge instead of leaving it to the next run.
   */
  lookAheadMs?: number;
  /** false: no batch probe (batch-probe.ts) before the run; default: probe where the batch time is known. */
  probeBatches?: boolean;
  /** Waits until `time` (the service clock's ms) before a looked-ahead check; default: a timer. */
  waitUntil?: (time: number) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
}

export interface RecheckResult {
  checked: number;
  transitions: number;
  dropped: number;
  unknown: number;
  /** Due candidates left for the next run because the deadline passed. */
  skipped: number;
}

const DAY = 86_400_000;

interface Candidate extends ProbeCandidate {
  /** Set for a looked-ahead purge check: when it falls due. */
  dueAt?: number;
}

/**
 * One round of RDAP re-checks: for each TLD the candidates that are due, those expected to
 * drop soonest first, at most `perTldBudget` of them. TLDs run side by side (different
 * registries), lookups within one TLD with bounded concurrency.
 */
export async function recheckDueCandidates(
  db: Kysely<DB>,
  clock: Clock,
  rdap: RdapClient,
  options: RecheckOptions,
): Promise<RecheckResult> {
  const now = clock.now();
  const result: RecheckResult = { checked: 0, transitions: 0, dropped: 0, unknown: 0, skipped: 0 };
  const timelineOf = (tld: string): DeletionTimeline => {
    const batchTimeOfDay = options.batchTimes?.[tld] ?? options.learnedBatchTimes?.batchTimeOf(tld) ?? null;
    const days = options.batchDays?.get(tld) ?? [];
    return {
      ...STANDARD_TIMELINE,
      ...options.timeline,
      batchTimeOfDay,
      batchSpread: batchTimeOfDay === null ? null : batchSpread(days, batchTimeOfDay),
    };
  };
  const count = (outcome: string) => {
    if (outcome === 'skipped') {
      result.skipped += 1;
      return;
    }
    result.checked += 1;
    if (outcome === 'unknown') result.unknown += 1;
    else if (outcome !== 'unchanged') {
      result.transitions += 1;
      if (outcome === 'dropped') result.dropped += 1;
    }
  };
  // Where the registry's batch time is known, one look tells whether its batch ran early or runs late.
  await Promise.all(
    options.tlds.map(async (tld) => {
      const timeline = timelineOf(tld);
      if (timeline.batchTimeOfDay === null || options.probeBatches === false) return;
      await probeBatch(db, {
        tld,
        now,
        batchTimeOfDay: timeline.batchTimeOfDay,
        look: async (candidate) => {
          const outcome = await recheckOne(db, clock, rdap, candidate, {
            deadline: options.deadline,
            timeline,
            learner: options.learnedBatchTimes,
          });
          count(outcome);
          return outcome;
        },
      });
    }),
  );
  const lookAhead = options.lookAheadMs ?? 0;
  const waitUntil =
    options.waitUntil ??
    ((time: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, time - clock.now()))));
  const batches = await Promise.all(
    options.tlds.map(async (tld): Promise<Candidate[]> => {
      const budget = typeof options.perTldBudget === 'number' ? options.perTldBudget : options.perTldBudget(tld);
      const due = await db
        .selectFrom('feed_domains')
        .select(CANDIDATE_COLUMNS)
        .where('tld', '=', tld)
        .where('status', 'in', [...PIPELINE_STATUSES])
        .where('next_check_at', '<=', now)
        .orderBy('expected_drop_at', 'asc')
        .orderBy('domain', 'asc')
        .limit(budget)
        .execute();
      if (lookAhead <= 0 || due.length >= budget) return due;
      const ahead = await db
        .selectFrom('feed_domains')
        .select([...CANDIDATE_COLUMNS, 'next_check_at'])
        .where('tld', '=', tld)
        .where('status', '=', 'pending-delete')
        .where('next_check_at', '>', now)
        .where('next_check_at', '<=', now + lookAhead)
        .orderBy('next_check_at', 'asc')
        .orderBy('expected_drop_at', 'asc')
        .orderBy('domain', 'asc')
        .limit(budget - due.length)
        .execute();
      return [...due, ...ahead.map(({ next_check_at, ...row }) => ({ ...row, dueAt: Number(next_check_at) }))];
    }),
  );
  const total = batches.reduce((sum, batch) => sum + batch.length, 0);
  options.onProgress?.(0, total);

  const look = async (candidate: Candidate) => {
    if (candidate.dueAt !== undefined && clock.now() < candidate.dueAt) await waitUntil(candidate.dueAt);
    const outcome = await recheckOne(db, clock, rdap, candidate, {
      deadline: options.deadline,
      timeline: timelineOf(candidate.tld),
      learner: options.learnedBatchTimes,
    });
    count(outcome);
    if (outcome !== 'skipped') options.onProgress?.(result.checked, total);
    return outcome;
  };
  await Promise.all(
    batches.map(async (candidates) => {
      const queue = new PQueue({ concurrency: options.perTldConcurrency });
      // The purge checks looked ahead to that fall due at the registry's batch time: the first
      // one says whether the batch has run; still `pending delete`, the rest are left to the next
      // run's probe. Every other candidate is looked at as it comes.
      const batchTime = candidates[0] ? timelineOf(candidates[0].tld).batchTimeOfDay : null;
      const atBatch = (candidate: Candidate) =>
        batchTime !== null &&
        candidate.dueAt !== undefined &&
        (((candidate.dueAt - batchTime) % DAY) + DAY) % DAY === 0;
      const [first, ...rest] = candidates.filter(atBatch);
      await queue.addAll(
        candidates.filter((candidate) => !atBatch(candidate)).map((candidate) => () => look(candidate)),
      );
      if (!first || (await look(first)) === 'unchanged') return;
      await queue.addAll(rest.map((candidate) => () => look(candidate)));
    }),
  );
  return result;
}

/** A failure a second request may not meet: not the registry's own refusal (429), an open breaker or the deadline. */
function isPassingFailure(lookup: RdapLookup): boolean {
  return (
    lookup.kind === 'unknown' &&
    (lookup.reason === 'upstream_error' || lookup.reason === 'timeout' || lookup.reason === 'network_error')
  );
}

async function recheckOne(
  db: Kysely<DB>,
  clock: Clock,
  rdap: RdapClient,
  candidate: Candidate,
  options: { deadline?: number | undefined; timeline: DeletionTimeline; learner?: BatchTimeLearner | undefined },
): Promise<string> {
  const { deadline, timeline, learner } = options;
  if (!isPipelineStatus(candidate.status)) return 'unchanged';
  // Out of time for this run: leave the candidate due for the next one, no failure counted.
  if (deadline !== undefined && Date.now() >= deadline) return 'skipped';
  const current: PipelineStatus = candidate.status;
  const look = () =>
    rdap.lookupDomain(candidate.domain, {
      traffic: 'background',
      registryOnly: true,
      ...(deadline ? { deadline } : {}),
    });
  let lookup = await look();
  // A purge check the registry failed to answer (a 5xx, a timeout) is asked once more at once:
  // left to the back-off, its drop would be verified an hour or more after the purge.
  if (current === 'pending-delete' && isPassingFailure(lookup) && (deadline === undefined || Date.now() < deadline)) {
    lookup = await look();
  }
  const now = clock.now();
  const verdict = judgeRdapAnswer(current, lookup);
  const pendingDeleteSince = registryStatusSince(lookup, 'pending-delete', now, timeline);
  if (learner && pendingDeleteSince !== null && verdict.kind !== 'unknown') {
    const answered = verdict.kind === 'transition' ? verdict.to : current;
    if (answered === 'pending-delete') learner.observe(candidate.tld, pendingDeleteSince);
  }

  if (verdict.kind === 'unknown') {
    const failures = candidate.check_failures + 1;
    await db
      .updateTable('feed_domains')
      .set({ check_failures: failures, next_check_at: retryAfterFailure(now, failures), updated_at: now })
      .where('domain', '=', candidate.domain)
      .where('status', '=', current)
      .execute();
    return 'unknown';
  }
  // The next lookup is planned from the registry's timeline for the status the answer leaves it in.
  const plan = (status: PipelineStatus, seenSince: number) =>
    planDropLookups({
      status,
      since: statusSince({ lookup, status, seenSince, now, timeline }),
      now,
      timeline,
    });
  if (verdict.kind === 'unchanged') {
    const { expectedDropAt, earliest, latest, nextCheckAt } = plan(current, candidate.status_since);
    await db
      .updateTable('feed_domains')
      .set({
        check_failures: 0,
        last_checked_at: now,
        verified_at: now,
        expected_drop_at: expectedDropAt,
        expected_drop_earliest: earliest,
        expected_drop_latest: latest,
        next_check_at: nextCheckAt,
        updated_at: now,
      })
      .where('domain', '=', candidate.domain)
      .where('status', '=', current)
      .execute();
    return 'unchanged';
  }

  const to = verdict.to;
  const planned = isPipelineStatus(to) ? plan(to, now) : null;
  const lifecycle = {
    expected_drop_at: planned?.expectedDropAt ?? null,
    expected_drop_earliest: planned?.earliest ?? null,
    expected_drop_latest: planned?.latest ?? null,
    next_check_at: planned?.nextCheckAt ?? null,
  };
  // The forecast the feed published (pending-delete rows only show one), as it stood before this answer.
  const published = to === 'dropped' && current === 'pending-delete' ? candidate.expected_drop_at : null;
  const moved = await applyTransition(
    db,
    {
      domain: candidate.domain,
      from: current,
      to,
      at: now,
      evidence: verdict.evidence,
      evidenceKey: verdict.evidenceKey,
      detail: verdict.detail,
    },
    {
      ...lifecycle,
      check_failures: 0,
      last_checked_at: now,
      verified_at: now,
      ...(to === 'dropped' ? { dropped_at: droppedAtOf(now) } : {}),
    },
    published === null
      ? undefined
      : (trx) =>
          recordForecast(trx, {
            domain: candidate.domain,
            tld: candidate.tld,
            expectedAt: Number(published),
            earliest: numberOrNull(candidate.expected_drop_earliest),
            latest: numberOrNull(candidate.expected_drop_latest),
            droppedAt: droppedAtOf(now),
          }),
  );
  return moved ? to : 'unchanged';
}

/**
 * A drop's time as the feed records it: to the whole second. The feed index keeps a time column as
 * 32-bit codes of the times' common unit (packages/feed-index time-column.ts): in seconds they span
 * 136 years, in milliseconds 49.7 days, past which the column falls back to 8 bytes a row.
 */
const droppedAtOf = (now: number) => Math.floor(now / 1000) * 1000;

/** An int8 column as a driver gives it (Postgres: maybe a string), NULL as null. */
const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));
