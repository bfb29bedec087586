import type { RdapLookup } from '../rdap/types.ts';
import { PENDING_DELETE_DAYS, REDEMPTION_DAYS } from './recheck-schedule.ts';
import type { PipelineStatus } from './states.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A registry's deletion timeline: the gTLD standard is 30 days of redemption, then 5 of pending delete. */
export interface DeletionTimeline {
  redemptionDays: number;
  pendingDeleteDays: number;
  /** When the registry runs its daily deletion batch, ms after 00:00 UTC; null: not known. */
  batchTimeOfDay: number | null;
  /**
   * How far the registry's batch has been seen to run from `batchTimeOfDay` over recent days
   * (batch-calendar.ts), ms: `early` ≤ 0 ≤ `late`; null: not observed (a configured time, or none).
   */
  batchSpread?: BatchSpread | null;
}

export interface BatchSpread {
  early: number;
  late: number;
}

export const STANDARD_TIMELINE: DeletionTimeline = {
  redemptionDays: REDEMPTION_DAYS,
  pendingDeleteDays: PENDING_DELETE_DAYS,
  batchTimeOfDay: null,
};

export interface DropPlan {
  expectedDropAt: number;
  /** The window the drop is expected in (see dropWindow); null where no drop is forecast (a held name). */
  earliest: number | null;
  latest: number | null;
  nextCheckAt: number;
}

/** The precision a learned batch time claims (batch-time-learner.ts's agreement tolerance): the window's margin. */
export const WINDOW_MARGIN = 10 * MINUTE;
/** Either side of the forecast when the batch time is known but its spread was not observed (configured, or too new). */
export const UNOBSERVED_SPREAD_HALF_WINDOW = HOUR;
/** Either side of the forecast when the batch time is not known: the purge is some batch of that day. */
export const UNKNOWN_BATCH_HALF_WINDOW = 12 * HOUR;

/**
 * The window around a forecast purge at `expected`: the registry's observed batch spread
 * widened by WINDOW_MARGIN; an hour either side when the batch time is known but its spread
 * was not observed; half a day either side when the batch time is not known.
 */
export function dropWindow(expected: number, timeline: DeletionTimeline): { earliest: number; latest: number } {
  if (timeline.batchTimeOfDay === null) {
    return { earliest: expected - UNKNOWN_BATCH_HALF_WINDOW, latest: expected + UNKNOWN_BATCH_HALF_WINDOW };
  }
  const spread = timeline.batchSpread;
  if (!spread) {
    return { earliest: expected - UNOBSERVED_SPREAD_HALF_WINDOW, latest: expected + UNOBSERVED_SPREAD_HALF_WINDOW };
  }
  return { earliest: expected + spread.early - WINDOW_MARGIN, latest: expected + spread.late + WINDOW_MARGIN };
}

/** The first run of a daily batch at `timeOfDay` (ms after 00:00 UTC) at or after `time`. */
export function batchAtOrAfter(time: number, timeOfDay: number): number {
  const today = Math.floor(time / DAY) * DAY + timeOfDay;
  return today >= time ? today : today + DAY;
}

/**
 * The few RDAP lookups a candidate needs, planned from the registry's own timeline instead of
 * polling: a name in redemption is looked at once just after it must have entered pending delete
 * (30 days after its deletion), a name in pending delete once just after its purge (5 days on),
 * where the 404 verifies the drop. `since` is when the registry put the name in its status (its
 * own `last changed` date when plausible, else when we first saw it). With the registry's daily
 * batch time known (the batch moves names to pending delete and purges them; configured as the
 * time by which it has run, or learned from the registry's answers), each look falls due at the
 * batch that changes the answer, and the next hourly run makes it. A registry that runs late (or a batch time not
 * known) costs a look after its next batch (6 hours on when not known) in redemption, and hourly
 * looks once a purge is overdue, so a late purge is still verified within about an hour.
 */
export function planDropLookups(input: {
  status: PipelineStatus;
  since: number;
  now: number;
  timeline: DeletionTimeline;
}): DropPlan {
  const { status, since, now, timeline } = input;
  const { batchTimeOfDay } = timeline;
  const atBatch = (time: number) => (batchTimeOfDay === null ? time : batchAtOrAfter(time, batchTimeOfDay));

  if (status === 'pending-delete') {
    // Registries count pending delete in days: the purge is the batch of the fifth day after the
    // one the name entered it, even when that day's batch ran late (an elapsed 5 × 24 h would
    // put it a day after the purge).
    const purge =
      batchTimeOfDay === null
        ? since + timeline.pendingDeleteDays * DAY
        : Math.floor(since / DAY) * DAY + timeline.pendingDeleteDays * DAY + batchTimeOfDay;
    return { expectedDropAt: purge, ...dropWindow(purge, timeline), nextCheckAt: now < purge ? purge : now + HOUR };
  }
  if (status === 'redemption') {
    const pendingDelete = atBatch(since + timeline.redemptionDays * DAY);
    // Looked at on or after the batch and still in redemption: the registry is late.
    const late = batchTimeOfDay === null ? now + 6 * HOUR : batchAtOrAfter(now + MINUTE, batchTimeOfDay);
    const purge = atBatch(pendingDelete + timeline.pendingDeleteDays * DAY);
    return {
      expectedDropAt: purge,
      ...dropWindow(purge, timeline),
      nextCheckAt: now < pendingDelete ? pendingDelete : late,
    };
  }
  // Out of the zone but in neither deletion status (on a registrar hold, in a grace period).
  return {
    expectedDropAt: since + (timeline.redemptionDays + timeline.pendingDeleteDays) * DAY,
    earliest: null,
    latest: null,
    nextCheckAt: now + HELD_NAME_WAIT,
  };
}

/**
 * The wait between two looks at a name out of the zone that the registry still answers
 * registered (a registrar hold keeps a name so for days to weeks before deleting it, if ever): a
 * week. A look a day cost a name held 30 days 30 lookups; a week costs 5. Seeing its deletion up
 * to a week late costs nothing: redemption lasts 30 days, and the pending-delete look is planned
 * from the registry's own date of the deletion (its `last changed`), not from when we saw it.
 */
export const HELD_NAME_WAIT = 7 * DAY;

/**
 * When the registry put a name in `status` by its own record: the `last changed` date, if that
 * is plausible for the status (not in the future, not older than the status can last); else null.
 */
export function registryStatusSince(
  lookup: RdapLookup,
  status: PipelineStatus,
  now: number,
  timeline: DeletionTimeline,
): number | null {
  if (lookup.kind !== 'found' || !lookup.record.updated_at) return null;
  const changed = Date.parse(lookup.record.updated_at);
  const longest = status === 'pending-delete' ? timeline.pendingDeleteDays : timeline.redemptionDays;
  return !Number.isNaN(changed) && changed <= now && changed >= now - (longest + 1) * DAY ? changed : null;
}

/**
 * When the registry put a name in `status`: by its own record when plausible; else, for pending
 * delete under a known batch time, the last batch before we first saw it so (only a batch moves
 * names there); else when we first saw it (`seenSince`).
 */
export function statusSince(input: {
  lookup: RdapLookup;
  status: PipelineStatus;
  seenSince: number;
  now: number;
  timeline: DeletionTimeline;
}): number {
  const { lookup, status, seenSince, now, timeline } = input;
  const { batchTimeOfDay } = timeline;
  const byRegistry = registryStatusSince(lookup, status, now, timeline);
  if (byRegistry !== null) return byRegistry;
  if (status === 'pending-delete' && batchTimeOfDay !== null) {
    const batch = batchAtOrAfter(seenSince, batchTimeOfDay);
    return batch === seenSince ? batch : batch - DAY;
  }
  return seenSince;
}

/** A time (or ms after midnight) as its time of day, "HH:MM" UTC: timeOfDay's inverse. */
export function formatTimeOfDay(time: number): string {
  return new Date(((time % DAY) + DAY) % DAY).toISOString().slice(11, 16);
}

/** "HH:MM" (UTC) as ms after midnight. */
export function timeOfDay(text: string): number {
  const [hours = 0, minutes = 0] = text.split(':').map(Number);
  return hours * HOUR + minutes * MINUTE;
}
