import { type Static, type TObject, type TSchema, Type } from 'typebox';
import { Literals, Nullable } from '../schema-helpers.ts';
import { BrandMatch } from './brand.ts';
import { FeedRecord } from './feed.ts';
import { WATCH_STATUSES, WatchEvidence } from './management.ts';

/**
 * The bodies of the signed webhooks (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature` headers; the body `{type, timestamp, data}`). A saved filter's batches go
 * to its targets; the account events go to every webhook target of an Enterprise account.
 * The OpenAPI document's `webhooks` section and the /docs/events page are rendered from here.
 */

const time = (description: string) => Type.String({ format: 'date-time', description });

const AT = '2026-03-10T12:00:00.000Z';

/** An event body schema; `example` is its `data` in the documents (a test checks it against the schema). */
const eventOf = <const T extends string, D extends TSchema>(
  type: T,
  data: D,
  description: string,
  example: Static<D>,
) =>
  Type.Object(
    {
      type: Type.Literal(type),
      timestamp: time('When the message was made (the same on every retry and redelivery)'),
      data,
    },
    { title: type, description, examples: [{ type, timestamp: AT, data: example }] },
  );

const quotaExample = { plan: 'starter', limit: 1000, used: 800, day: '2026-03-10' };

const QuotaData = Type.Object({
  plan: Type.String({ description: 'free, starter or enterprise' }),
  limit: Type.Integer({ description: 'Calls per UTC day' }),
  used: Type.Integer({ description: 'Calls counted today when the threshold was crossed' }),
  day: Type.String({ format: 'date', description: 'The UTC day' }),
});

/** How a watched name moved (`to` says where it is now). */
export const WATCH_TRANSITIONS = [
  'left-zone',
  'redemption',
  'pending-delete',
  'dropped',
  're-registered',
  'returned',
] as const;
export type WatchTransitionKind = (typeof WATCH_TRANSITIONS)[number];

/** A row of a filter batch: the /v1/domains record, and for a brand filter why it matched. */
export const FilterBatchRow = Type.Object({
  ...FeedRecord.properties,
  match: Type.Optional(BrandMatch),
});
export type FilterBatchRow = Static<typeof FilterBatchRow>;

export const FilterBatchEvent = eventOf(
  'filter.batch',
  Type.Object({
    batch_id: Type.String({ description: 'The webhook-id: a receiver drops a batch id it has seen' }),
    filter_id: Type.String({ description: 'The saved filter' }),
    filter_name: Type.String({ description: 'Its name when the batch was made' }),
    sequence: Type.Integer({ description: 'Consecutive per filter, from 1: a gap means a batch is still coming' }),
    rows: Type.Array(FilterBatchRow, {
      description:
        'The rows new to this filter (the /v1/domains record, with `match` for a brand filter), at most 1,000 a batch',
    }),
  }),
  'New feed rows matching a saved filter, after a daily run or an hourly verification round. Each row goes to a filter once; batches arrive in sequence order per target.',
  {
    batch_id: 'msg_8Jd2wQmX4tZ1',
    filter_id: 'flt_3Kp9sLq2',
    filter_name: 'short .com with DA',
    sequence: 12,
    rows: [
      {
        domain: 'oldbrand.com',
        tld: 'com',
        status: 'dropped',
        dropped_at: AT,
        first_archived: '2009-04-02',
        age_years: 16.9,
        alt_tld_count: 3,
        alt_tlds: ['net', 'org', 'io'],
        da: 34,
        tf: 21,
        length: 8,
        has_hyphen: false,
        has_digit: false,
        verified_at: AT,
        expected_drop_at: null,
        first_seen: null,
        expected_drop_earliest: null,
        expected_drop_latest: null,
      },
    ],
  },
);

export const QuotaWarningEvent = eventOf(
  'quota.warning',
  QuotaData,
  'The account has used 80 % of its daily call quota (once per UTC day).',
  { ...quotaExample, used: 800 },
);

export const QuotaExhaustedEvent = eventOf(
  'quota.exhausted',
  QuotaData,
  'The daily call quota is used up; calls get 429 quota_exceeded until 00:00 UTC (once per UTC day).',
  { ...quotaExample, used: 1000 },
);

export const KeyCreatedEvent = eventOf(
  'key.created',
  Type.Object({
    key_id: Type.String(),
    prefix: Type.String({ description: 'The first characters of the key, as the dashboard shows them' }),
    name: Type.String(),
  }),
  'An API key was created (also the new key of a rotation).',
  { key_id: 'key_5Hq2mB', prefix: 'di_live_7Yx', name: 'ci' },
);

export const KeyRevokedEvent = eventOf(
  'key.revoked',
  Type.Object({
    key_id: Type.String(),
    replaced_by: Type.Optional(Type.String({ description: 'The new key, when the key was rotated' })),
  }),
  'An API key was revoked, or replaced by a rotation; calls with it are refused from now on.',
  { key_id: 'key_5Hq2mB', replaced_by: 'key_9Zk4tC' },
);

export const SubscriptionEndingEvent = eventOf(
  'subscription.ending',
  Type.Object({
    plan: Type.String({ description: 'The paid plan that ends' }),
    ends_at: time('End of the billing period: the keys stop working then'),
  }),
  'The paid plan was cancelled (dashboard, Stripe portal or operator) and ends with its billing period.',
  { plan: 'enterprise', ends_at: '2026-04-09T12:00:00.000Z' },
);

export const WatchTransitionEvent = eventOf(
  'watch.transition',
  Type.Object({
    domain: Type.String(),
    transition: Literals(WATCH_TRANSITIONS, {
      description:
        'left-zone (gone from the zone of a tracked TLD), redemption, pending-delete (drop near: see expected_drop_at), dropped (available now), re-registered (taken again after it was available), returned (restored by its holder on the way out)',
    }),
    from: Literals(WATCH_STATUSES),
    to: Literals(WATCH_STATUSES),
    expected_drop_at: Nullable(time('When it is expected to become available (names on their way out)')),
    evidence: WatchEvidence,
    at: time('When the evidence was seen'),
  }),
  'A watched domain moved in its lifecycle.',
  {
    domain: 'wanted-name.com',
    transition: 'pending-delete',
    from: 'redemption',
    to: 'pending-delete',
    expected_drop_at: '2026-03-15T12:00:00.000Z',
    evidence: {
      source: 'rdap',
      at: AT,
      detail: { status: ['pending delete'], server: 'https://rdap.verisign.com/com/v1/' },
    },
    at: AT,
  },
);

export const DeliveryFailedEvent = eventOf(
  'delivery.failed',
  Type.Object({
    delivery_id: Type.String(),
    batch_id: Type.String(),
    filter_id: Nullable(Type.String()),
    target_id: Type.String(),
    attempts: Type.Integer(),
    last_error: Type.String(),
  }),
  'A filter batch could not be delivered to a target for 24 hours and is dead-lettered; redeliver it from the dashboard or with POST /account/deliveries/{id}/redeliver.',
  {
    delivery_id: 'dlv_2Wq8',
    batch_id: 'msg_8Jd2wQmX4tZ1',
    filter_id: 'flt_3Kp9sLq2',
    target_id: 'tgt_9Zk4',
    attempts: 14,
    last_error: 'The webhook answered HTTP 503.',
  },
);

export const BulkCheckCompletedEvent = eventOf(
  'bulk_check.completed',
  Type.Object({
    id: Type.String({ description: 'The bulk check (GET /account/bulk-checks/{id})' }),
    total: Type.Integer({ description: 'Items of the job (distinct entries)' }),
    available: Type.Integer({ description: 'Items found available' }),
    registered: Type.Integer({ description: 'Items found registered or reserved' }),
    unknown: Type.Integer({ description: 'Items no registry answered for (retry them later)' }),
    invalid: Type.Integer({ description: 'Malformed entries' }),
    results_url: Type.String({ description: 'Where the items download (NDJSON; ?format=csv for CSV)' }),
  }),
  'Every item of a bulk availability job is decided; its results are ready to download.',
  {
    id: 'bulk_4Rt8mWq2',
    total: 10000,
    available: 2113,
    registered: 7790,
    unknown: 91,
    invalid: 6,
    results_url: '/account/bulk-checks/bulk_4Rt8mWq2/results',
  },
);

/** Every webhook body by its `type`. */
export const WEBHOOK_EVENTS = {
  'filter.batch': FilterBatchEvent,
  'quota.warning': QuotaWarningEvent,
  'quota.exhausted': QuotaExhaustedEvent,
  'key.created': KeyCreatedEvent,
  'key.revoked': KeyRevokedEvent,
  'subscription.ending': SubscriptionEndingEvent,
  'watch.transition': WatchTransitionEvent,
  'delivery.failed': DeliveryFailedEvent,
  'bulk_check.completed': BulkCheckCompletedEvent,
} as const satisfies Record<string, TObject>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export type WebhookEvent = { [K in WebhookEventType]: Static<(typeof WEBHOOK_EVENTS)[K]> }[WebhookEventType];

/** The events of an account (everything but filter batches). */
export type AccountEventType = Exclude<WebhookEventType, 'filter.batch'>;
export const ACCOUNT_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS).filter(
  (type): type is AccountEventType => type !== 'filter.batch',
);
/** The `data` of an event type. */
export type EventData<T extends WebhookEventType> = Static<(typeof WEBHOOK_EVENTS)[T]>['data'];
export type FilterBatchData = EventData<'filter.batch'>;
export type WatchTransitionData = EventData<'watch.transition'>;
