import type { WatchEvidence, WatchStatus, WatchTransitionKind } from '@repo/contracts/domain-intel';
import {
  expectedDropAt,
  isPipelineStatus,
  nextCheckAt,
  type RdapStanding,
  retryAfterFailure,
} from '../lifecycle/index.ts';

const DAY = 86_400_000;

/** One piece of evidence about a watched name: where it stands, from which source, since when. */
export interface Observation {
  status: Exclude<WatchStatus, 'unknown'>;
  /** When the source saw it (the lifecycle: when the feed row entered its status). */
  at: number;
  /** The lifecycle's own expected drop, when the source has one (feed rows). */
  expectedDropAt: number | null;
  /** RDAP: when the registration expires. */
  expiresAt: number | null;
  evidence: WatchEvidence;
}

/** What a watched row holds of its state. */
export interface WatchState {
  status: WatchStatus;
  statusSince: number | null;
  expectedDropAt: number | null;
}

/** The state after an observation, and the transition it is (null: the first evidence, or no move). */
export interface Outcome {
  state: WatchState;
  transition: WatchTransitionKind | null;
}

/**
 * A feed row's lifecycle status as a watch status: the lifecycle follows names of tracked TLDs
 * from the day they leave the zone (`returned` and `re-registered` are registered again).
 */
export function watchStatusOfFeed(feedStatus: string): Observation['status'] | null {
  if (isPipelineStatus(feedStatus)) return feedStatus;
  if (feedStatus === 'dropped') return 'available';
  if (feedStatus === 'returned' || feedStatus === 're-registered') return 'registered';
  return null;
}

/** A registry answer as a watch status (null: no answer, nothing learnt). */
export function watchStatusOfRdap(standing: RdapStanding): Observation['status'] | null {
  return standing.kind === 'unknown' ? null : standing.kind;
}

/** How a move from `from` to `to` is announced; null for the first evidence or no move. */
export function transitionOf(from: WatchStatus, to: WatchStatus): WatchTransitionKind | null {
  if (from === to || from === 'unknown' || to === 'unknown') return null;
  if (to === 'available') return 'dropped';
  if (to === 'registered') return from === 'available' ? 're-registered' : 'returned';
  return to;
}

/**
 * Applies one observation to a watched name. The rule the lifecycle also keeps: an RDAP answer
 * that only says "registered" does not bring a name that left the zone back (it is out of the
 * zone on hold or in its grace period; only the zone or a deletion status says more).
 */
export function observe(current: WatchState, observation: Observation): Outcome {
  const rdapOnly = observation.evidence.source === 'rdap' || observation.evidence.source === 'whois';
  const to =
    rdapOnly && observation.status === 'registered' && current.status === 'left-zone'
      ? current.status
      : observation.status;
  const moved = to !== current.status;
  const statusSince = moved ? observation.at : (current.statusSince ?? observation.at);
  return {
    state: { status: to, statusSince, expectedDropAt: expectedDrop(to, statusSince, observation) },
    transition: moved ? transitionOf(current.status, to) : null,
  };
}

/** When a name on its way out becomes available: the lifecycle's figure, else the standard timeline. */
function expectedDrop(status: WatchStatus, statusSince: number, observation: Observation): number | null {
  if (!isPipelineStatus(status)) return null;
  if (observation.expectedDropAt !== null && observation.status === status) return observation.expectedDropAt;
  return expectedDropAt(status, statusSince);
}

/**
 * When RDAP looks at a watched name next, planned by its expected drop as the lifecycle plans
 * its candidates: hourly once the drop is near. A registered name cannot start to drop before
 * it expires, so it waits for that (at most 30 days; a day, or a week where the zone of a
 * tracked TLD shows it leaving first). An available name is looked at daily for a
 * re-registration. No answer yet: back off as the lifecycle does.
 */
export function nextWatchCheck(
  now: number,
  state: WatchState,
  context: { tracked: boolean; failures: number; expiresAt: number | null },
): number {
  if (context.failures > 0) return retryAfterFailure(now, context.failures);
  if (isPipelineStatus(state.status)) return nextCheckAt(now, state.expectedDropAt ?? now);
  if (state.status === 'registered') {
    const base = context.tracked ? 7 * DAY : DAY;
    const untilExpiry = context.expiresAt === null ? base : context.expiresAt - now;
    return now + Math.min(Math.max(untilExpiry, base), 30 * DAY);
  }
  if (state.status === 'available') return now + DAY;
  return retryAfterFailure(now, 1);
}
