import type { RdapLookup } from '../rdap/types.ts';
import {
  type Evidence,
  isForward,
  type PipelineStatus,
  RDAP_PENDING_DELETE,
  RDAP_PENDING_RESTORE,
  RDAP_REDEMPTION,
  type StoredStatus,
} from './states.ts';

export type RdapVerdict =
  /** The answer moves the name to `to`. */
  | { kind: 'transition'; to: StoredStatus; evidence: Evidence; evidenceKey: string; detail: Record<string, unknown> }
  /** The answer confirms the current state (or says nothing new). */
  | { kind: 'unchanged'; checkedAt: number }
  /** No reliable answer; try again later. */
  | { kind: 'unknown'; reason: string };

/**
 * What one RDAP answer from the registry means for a candidate in state `current`.
 * Only evidence moves a name: `pending delete` / `redemption period` statuses move it forward
 * (never back), an authoritative 404 verifies the drop, and a registered name without either
 * status after redemption means the registrant restored it.
 */
export function judgeRdapAnswer(current: PipelineStatus, lookup: RdapLookup): RdapVerdict {
  if (lookup.kind === 'unknown') return { kind: 'unknown', reason: lookup.reason };
  // A registry that blocks a deleted name has not released it: no drop to verify, nor a restore.
  if (lookup.kind === 'reserved') return { kind: 'unknown', reason: 'reserved' };
  if (lookup.kind === 'not_found') {
    return {
      kind: 'transition',
      to: 'dropped',
      evidence: 'rdap_not_found',
      evidenceKey: `rdap:${lookup.checkedAt}`,
      detail: { source: lookup.source, checked_at: lookup.checkedAt },
    };
  }
  const { record } = lookup;
  const detail = { source: record.rdap_sources[0] ?? null, status: record.status, checked_at: record.fetched_at };
  const evidenceKey = `rdap:${record.fetched_at}`;
  const target = deletionStatusOf(record.status);

  if (target) {
    if (target !== current && isForward(current, target)) {
      return { kind: 'transition', to: target, evidence: 'rdap_status', evidenceKey, detail };
    }
    return { kind: 'unchanged', checkedAt: Date.parse(record.fetched_at) };
  }
  // Registered and in neither deletion status. After redemption that can only be a
  // restore. A name merely out of the zone (hold, auto-renew grace) stays a candidate
  // until the zone or the registry says more.
  if (current === 'redemption' || current === 'pending-delete') {
    return { kind: 'transition', to: 'returned', evidence: 'rdap_active', evidenceKey, detail };
  }
  return { kind: 'unchanged', checkedAt: Date.parse(record.fetched_at) };
}

/** The deletion stage a registered name's RDAP status list puts it in, if any. */
export function deletionStatusOf(rdapStatus: readonly string[]): 'redemption' | 'pending-delete' | null {
  const statuses = rdapStatus.map((status) => status.toLowerCase());
  if (statuses.includes(RDAP_PENDING_DELETE)) return 'pending-delete';
  if (statuses.includes(RDAP_REDEMPTION) || statuses.includes(RDAP_PENDING_RESTORE)) return 'redemption';
  return null;
}

/** Where any name stands by one registry answer (the watchlist follows names in and out of the pipeline). */
export type RdapStanding =
  | {
      kind: 'registered' | 'redemption' | 'pending-delete';
      /** When the registration expires (a registered name cannot start to drop before). */
      expiresAt: number | null;
      detail: { server: string | null; status: string[]; expires_at: string | null };
    }
  | { kind: 'available'; detail: { server: string } }
  | { kind: 'unknown'; reason: string };

/**
 * The standing of a name by the registry's RDAP answer, whatever its lifecycle state: only the
 * registry's own 404 is `available`; a registered name is in `redemption` or `pending-delete`
 * when its status list says so (the same RFC 8056 statuses that move feed candidates), else
 * `registered`; no answer is `unknown`.
 */
export function rdapStanding(lookup: RdapLookup): RdapStanding {
  if (lookup.kind === 'unknown') return { kind: 'unknown', reason: lookup.reason };
  // Reserved is not registrable, yet has no registration to follow: the watch stays open, saying why.
  if (lookup.kind === 'reserved') return { kind: 'unknown', reason: 'reserved' };
  if (lookup.kind === 'not_found') return { kind: 'available', detail: { server: lookup.source } };
  const { record } = lookup;
  const expiresAt = record.expires_at === null ? Number.NaN : Date.parse(record.expires_at);
  return {
    kind: deletionStatusOf(record.status) ?? 'registered',
    expiresAt: Number.isNaN(expiresAt) ? null : expiresAt,
    detail: { server: record.rdap_sources[0] ?? null, status: record.status, expires_at: record.expires_at },
  };
}
