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
  const statuses = record.status.map((status) => status.toLowerCase());
  const detail = { source: record.rdap_sources[0] ?? null, status: record.status, checked_at: record.fetched_at };
  const evidenceKey = `rdap:${record.fetched_at}`;
  let target: PipelineStatus | null = null;
  if (statuses.includes(RDAP_PENDING_DELETE)) target = 'pending-delete';
  else if (statuses.includes(RDAP_REDEMPTION) || statuses.includes(RDAP_PENDING_RESTORE)) target = 'redemption';

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
