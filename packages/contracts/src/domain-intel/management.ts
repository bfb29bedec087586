import { type Static, Type } from 'typebox';
import { Literals, Nullable } from '../schema-helpers.ts';

const time = (description: string) => Type.String({ format: 'date-time', description });

/** The kinds of delivery target: a signed webhook, an e-mail address, an SFTP directory. */
export const TARGET_KINDS = ['webhook', 'email', 'sftp'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** A saved feed filter ("custom filter") of the account: /account/filters, the dashboard, the CLI. */
export const SavedFilter = Type.Object({
  filter_id: Type.String({ examples: ['flt_5Hq…'] }),
  name: Type.String(),
  filter: Type.String({ description: 'The filter as /v1/domains query parameters', examples: ['tld=com&min_da=20'] }),
  brand: Nullable(
    Type.String({
      description:
        'A brand term: only rows whose label is it or a lookalike (typo, homoglyph, hyphen or digit added, containing it) are delivered, each with `match` saying why',
      examples: ['paypal'],
    }),
  ),
  target_ids: Type.Array(Type.String(), { description: 'Where its batches go (none: the dashboard only)' }),
  paused: Type.Boolean({ description: "Over the plan's saved-filter limit (after a downgrade): kept, not matched" }),
  created_at: time('When it was saved'),
});
export type SavedFilter = Static<typeof SavedFilter>;

/** A delivery target as listed (never its secret or private key). */
export const DeliveryTarget = Type.Object({
  target_id: Type.String({ examples: ['tgt_9Zk…'] }),
  kind: Literals(TARGET_KINDS),
  address: Type.String({ description: 'Webhook URL, e-mail address or sftp://user@host:port/directory' }),
  public_key: Nullable(
    Type.String({ description: "SFTP: our public key, for the user's authorized_keys on your server" }),
  ),
  created_at: time('When it was added'),
});
export type DeliveryTarget = Static<typeof DeliveryTarget>;

/** The answer to adding a target: the listed record plus, for a webhook, its signing secret (shown once). */
export const CreatedDeliveryTarget = Type.Object({
  ...DeliveryTarget.properties,
  secret: Nullable(
    Type.String({ description: 'Webhook: the Standard Webhooks signing secret (whsec_…), shown only in this answer' }),
  ),
});
export type CreatedDeliveryTarget = Static<typeof CreatedDeliveryTarget>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;

/** One line of the delivery log: one message (a filter batch or an account event) to one target. */
export const Delivery = Type.Object({
  delivery_id: Type.String(),
  batch_id: Type.String({
    description: 'The message id: the webhook-id header, the same on every retry and redelivery',
  }),
  type: Type.String({ description: 'filter.batch or an account event type' }),
  filter_id: Nullable(Type.String()),
  sequence: Nullable(Type.Integer({ description: "The batch's place in its filter's order, from 1" })),
  created_at: time('When the message was made'),
  rows: Type.Integer({ description: 'Feed rows in the batch (0 for an account event)' }),
  target: Type.String({ description: 'A target id, or `dashboard` for a filter without targets' }),
  attempts: Type.Integer(),
  status: Literals(DELIVERY_STATUSES, {
    description: 'pending (being tried, with back-off), delivered, or dead (24 h of failures; redeliver it)',
  }),
  next_attempt_at: Nullable(time('When a pending delivery is tried next')),
  delivered_at: Nullable(time('When the target accepted it')),
  last_error: Nullable(Type.String()),
});
export type Delivery = Static<typeof Delivery>;

/**
 * Where a watched name stands. `registered` (in use), `left-zone` (gone from the zone file of a
 * tracked TLD), `redemption`, `pending-delete` (its drop is near: see expected_drop_at),
 * `available` (the registry's RDAP answers 404: anyone may register it), `unknown` (no answer yet).
 */
export const WATCH_STATUSES = [
  'unknown',
  'registered',
  'left-zone',
  'redemption',
  'pending-delete',
  'available',
] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];

/** What a watched name's status last came from. */
export const WatchEvidence = Type.Object({
  source: Literals(['rdap', 'whois', 'zone', 'lifecycle'] as const, {
    description:
      "rdap: the registry's RDAP answer; whois: the registry's port-43 WHOIS answer (TLDs without RDAP); zone: our zone snapshot of a tracked TLD; lifecycle: the drop pipeline (zone diff and its RDAP re-checks)",
  }),
  at: time('When that evidence was seen'),
  detail: Type.Record(Type.String(), Type.Unknown(), {
    description: 'What the source said: the registry status list and server, snapshot date, lifecycle status, …',
  }),
});
export type WatchEvidence = Static<typeof WatchEvidence>;

/** A watched domain with what we last knew of it (/account/watchlist, GET /v1/watchlist). */
export const WatchedDomain = Type.Object({
  domain: Type.String({ examples: ['wanted-name.com'] }),
  status: Literals(WATCH_STATUSES),
  status_since: Nullable(time('When it entered this status (as we saw it)')),
  expected_drop_at: Nullable(time('For a name on its way out: when it is expected to become available')),
  evidence: Nullable(WatchEvidence),
  checked_at: Nullable(time('Last evidence')),
  next_check_at: time('Next RDAP re-check, planned from the expected drop'),
  paused: Type.Boolean({ description: "Over the plan's watchlist limit (after a downgrade): kept, not followed" }),
  added_at: time('When the account started watching it'),
});
export type WatchedDomain = Static<typeof WatchedDomain>;
