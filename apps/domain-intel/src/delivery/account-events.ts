/**
 * The account events sent as signed webhooks to an account's webhook targets. Each payload is
 * documented once here (the OpenAPI `webhooks` section and /docs are rendered from it).
 */
export const ACCOUNT_EVENTS = {
  'quota.warning': 'The account has used 80 % of its daily call quota. data: plan, limit, used, day.',
  'quota.exhausted': 'The daily call quota is used up; calls get 429 until 00:00 UTC. data: plan, limit, used, day.',
  'key.created': 'An API key was created (or issued by a rotation). data: key_id, prefix, name.',
  'key.revoked': 'An API key was revoked (or replaced by a rotation). data: key_id.',
  'subscription.ending': 'The paid plan was cancelled and ends with its billing period. data: plan, ends_at.',
  'watch.transition':
    'A watched domain moved in its lifecycle. data: domain, from, to, expected_drop_at, evidence, at.',
  'delivery.failed':
    'A filter batch could not be delivered to a target for 24 hours and is dead-lettered (redeliver it from ' +
    'the dashboard or POST /account/deliveries/{id}/redeliver). data: delivery_id, batch_id, filter_id, target_id, attempts, last_error.',
} as const;

export type AccountEventType = keyof typeof ACCOUNT_EVENTS;

/** Where account events are reported from the services that cause them (accounts, quota, watchlist). */
export type AccountEventListener = (
  accountId: string,
  type: AccountEventType,
  data: Record<string, unknown>,
  /** The same key twice records one event (e.g. one quota warning per account and day). */
  dedupeKey?: string,
) => void;
