import { Type } from '@fastify/type-provider-typebox';
import { FeedRecord as FeedRecordSchema } from '@repo/contracts/domain-intel';
import { ACCOUNT_EVENTS } from './account-events.ts';
import { TARGET_KINDS } from './targets.ts';

const time = (description: string) => Type.String({ format: 'date-time', description });
const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** The wire records of saved filters, targets, deliveries and watchlists (one place each). */
export const SavedFilterRecord = Type.Object({
  filter_id: Type.String({ examples: ['flt_5Hq…'] }),
  name: Type.String(),
  filter: Type.String({ description: 'The filter as /v1/domains query parameters', examples: ['tld=com&min_da=20'] }),
  target_ids: Type.Array(Type.String()),
  paused: Type.Boolean({ description: "Over the plan's saved-filter limit (after a downgrade): kept, not matched" }),
  created_at: time('When it was saved'),
});

export const TargetRecord = Type.Object({
  target_id: Type.String({ examples: ['tgt_9Zk…'] }),
  kind: Type.Union(TARGET_KINDS.map((kind) => Type.Literal(kind))),
  address: Type.String({ description: 'Webhook URL, e-mail address or sftp://user@host:port/directory' }),
  public_key: nullable(Type.String({ description: 'SFTP: our public key, for authorized_keys on your server' })),
  created_at: time('When it was added'),
});

export const CreatedTargetRecord = Type.Object({
  ...TargetRecord.properties,
  secret: nullable(
    Type.String({ description: 'Webhook: the Standard Webhooks signing secret (whsec_…), shown only in this answer' }),
  ),
});

export const DeliveryRecord = Type.Object({
  delivery_id: Type.String(),
  batch_id: Type.String({
    description: 'The message id: the webhook-id header, the same on every retry and redelivery',
  }),
  type: Type.String({ description: 'filter.batch or an account event type' }),
  filter_id: nullable(Type.String()),
  sequence: Type.Union([Type.Integer(), Type.Null()], { description: "The batch's place in its filter's order" }),
  created_at: time('When the batch was made'),
  rows: Type.Integer(),
  target: Type.String({ description: 'A target id, or `dashboard` for a filter without targets' }),
  attempts: Type.Integer(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('dead')]),
  next_attempt_at: nullable(time('When a pending delivery is tried next')),
  delivered_at: nullable(time('When the target accepted it')),
  last_error: nullable(Type.String()),
});

export const WatchRecord = Type.Object({
  domain: Type.String(),
  status: Type.String({
    description: 'registered, left-zone, redemption, pending-delete, available, unknown (no RDAP answer yet)',
  }),
  expected_drop_at: nullable(time('When a name on its way out is expected to drop')),
  evidence: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description: 'What the last status came from (zone snapshot or RDAP answer)',
  }),
  checked_at: nullable(time('Last evidence')),
  next_check_at: time('Next RDAP re-check'),
  paused: Type.Boolean({ description: "Over the plan's watchlist limit (after a downgrade): kept, not followed" }),
});

/** The body of every signed webhook (filter batches and account events), per Standard Webhooks. */
export const FilterBatchEvent = Type.Object({
  type: Type.Literal('filter.batch'),
  timestamp: time('When the batch was made'),
  data: Type.Object({
    batch_id: Type.String(),
    filter_id: Type.String(),
    filter_name: Type.String(),
    sequence: Type.Integer({ description: 'Consecutive per filter, from 1' }),
    rows: Type.Array(FeedRecordSchema),
  }),
});

export const AccountEvent = (type: keyof typeof ACCOUNT_EVENTS) =>
  Type.Object(
    {
      type: Type.Literal(type),
      timestamp: time('When it happened'),
      data: Type.Record(Type.String(), Type.Unknown()),
    },
    { description: ACCOUNT_EVENTS[type] },
  );
