/** The statuses `status=any` covers: names on the way and dropped ones, not those that came back. */
export const ANY_STATUSES = ['left-zone', 'redemption', 'pending-delete', 'dropped'];

/** Statuses get small codes in the index (FeedColumns.status); `status=any` is then a set of them. */
export const STATUS_CODES: readonly string[] = [...ANY_STATUSES, 'returned', 're-registered', 'new'];
