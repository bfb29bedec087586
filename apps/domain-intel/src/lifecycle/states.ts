/**
 * The lifecycle of a domain on its way to being dropped, and the exits from it.
 * `in-zone` is never stored: a name is only written once the zone diff shows it leaving, or
 * (as `new`) entering a zone it was not in the day before.
 */
export const PIPELINE_STATUSES = ['left-zone', 'redemption', 'pending-delete'] as const;
export const EXIT_STATUSES = ['returned', 're-registered'] as const;
/**
 * A name that entered a tracked zone and was not in it the day before (no row yet: nothing of it
 * was on the way out). Kept `NEW_REGISTRATION_RETENTION_DAYS`, then deleted (zone-evidence.ts).
 */
export const NEW_STATUS = 'new';
export const STORED_STATUSES = [...PIPELINE_STATUSES, 'dropped', ...EXIT_STATUSES, NEW_STATUS] as const;

export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];
export type StoredStatus = (typeof STORED_STATUSES)[number];
export type LifecycleStatus = 'in-zone' | StoredStatus;

/** How far along the way to `dropped` each state is; a transition never goes backwards. */
const PROGRESS: Record<PipelineStatus | 'dropped', number> = {
  'left-zone': 1,
  redemption: 2,
  'pending-delete': 3,
  dropped: 4,
};

export function isPipelineStatus(status: string): status is PipelineStatus {
  return (PIPELINE_STATUSES as readonly string[]).includes(status);
}

export function isForward(from: PipelineStatus, to: PipelineStatus | 'dropped'): boolean {
  return PROGRESS[to] > PROGRESS[from];
}

/** Where each kind of evidence came from, stored with every transition. */
export type Evidence = 'zone_removed' | 'zone_added' | 'rdap_status' | 'rdap_not_found' | 'rdap_active';

/** RDAP status strings (RFC 8056, as the registry sends them) that move a candidate on. */
export const RDAP_REDEMPTION = 'redemption period';
export const RDAP_PENDING_DELETE = 'pending delete';
export const RDAP_PENDING_RESTORE = 'pending restore';
