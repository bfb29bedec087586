import type { Delivery, FilterBatchData, FilterBatchRow } from '@repo/contracts/domain-intel';
import type { Clock } from '@repo/server-kit';
import { RETRY_WINDOW_MS, retryDelay } from '@repo/webhooks/retry-schedule';
import { type Kysely, sql } from 'kysely';
import { newId } from '../accounts/ids.ts';
import type { DB, DeliveryMessageTable } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';

const MINUTE = 60_000;
/**
 * A claimed delivery is not picked up by another worker for this long. Its sender renews the
 * claim every third of it while the send lasts (`renewClaim`), so a send may take longer, and a
 * sender that died (`kill -9`) leaves its delivery due again at most this long after.
 */
export const CLAIM_MS = MINUTE / 2;
/** Rows per filter batch: more go out as the next batches, in order. */
export const MAX_BATCH_ROWS = 1_000;
const IN_CHUNK = 500;

/** The back-off schedule both services' webhooks follow (30 s doubling, at most 3 h, for 24 h). */
export { RETRY_WINDOW_MS, retryDelay };

export type MessageRow = DeliveryMessageTable;

/** The body every message sends, in the Standard Webhooks shape (packages/contracts events.ts). */
export interface MessageBody<T = unknown> {
  type: string;
  timestamp: string;
  data: T;
}

/** One row newly matching a filter: its identity (domain and lifecycle episode) and record. */
export interface MatchedRow {
  domain: string;
  episode: number;
  record: FilterBatchRow;
}

export interface DueDelivery {
  id: string;
  target_id: string;
  attempts: number;
  next_attempt_at: number;
  first_attempt_at: number | null;
  message: MessageRow;
}

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/**
 * The durable outbox: owner of `delivery_messages`, `filter_matches` and `deliveries`.
 * A batch is written with its rows' match records and its deliveries in one transaction, so
 * a crash leaves either the whole batch or none of it; sending happens afterwards from these
 * rows, and a retry or redelivery sends the stored message again under the same id.
 */
export class DeliveryOutbox {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /**
   * Records the rows of `matched` that this filter has not had yet as its next batches (at
   * most MAX_BATCH_ROWS each, in the given order), one pending delivery per target (or a
   * `dashboard` entry when it has none), and moves the filter's watermark to `matchedThrough`.
   * Returns the number of rows batched.
   */
  async recordFilterBatches(
    filter: { id: string; accountId: string; name: string },
    matched: readonly MatchedRow[],
    targetIds: readonly string[],
    matchedThrough: number,
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('saved_filters')
        .select(['next_sequence'])
        .where('id', '=', filter.id)
        .executeTakeFirst();
      if (!current) return 0; // deleted meanwhile
      const seen = new Set<string>();
      for (let i = 0; i < matched.length; i += IN_CHUNK) {
        const chunk = matched.slice(i, i + IN_CHUNK);
        const rows = await trx
          .selectFrom('filter_matches')
          .select(['domain', 'episode'])
          .where('filter_id', '=', filter.id)
          .where(
            'domain',
            'in',
            chunk.map((row) => row.domain),
          )
          .execute();
        for (const row of rows) seen.add(`${row.domain}\u0000${Number(row.episode)}`);
      }
      const fresh = matched.filter((row) => !seen.has(`${row.domain}\u0000${row.episode}`));
      const now = this.clock.now();
      let sequence = current.next_sequence;
      for (let i = 0; i < fresh.length; i += MAX_BATCH_ROWS) {
        const rows = fresh.slice(i, i + MAX_BATCH_ROWS);
        const id = newId('msg');
        const body: MessageBody<FilterBatchData> = {
          type: 'filter.batch',
          timestamp: new Date(now).toISOString(),
          data: {
            batch_id: id,
            filter_id: filter.id,
            filter_name: filter.name,
            sequence,
            rows: rows.map((row) => row.record),
          },
        };
        await trx
          .insertInto('delivery_messages')
          .values({
            id,
            account_id: filter.accountId,
            filter_id: filter.id,
            sequence,
            type: body.type,
            payload: JSON.stringify(body),
            rows: rows.length,
            dedupe_key: null,
            created_at: now,
          })
          .execute();
        for (let j = 0; j < rows.length; j += IN_CHUNK) {
          await trx
            .insertInto('filter_matches')
            .values(
              rows
                .slice(j, j + IN_CHUNK)
                .map((row) => ({ filter_id: filter.id, domain: row.domain, episode: row.episode, message_id: id })),
            )
            .execute();
        }
        await this.#insertDeliveries(trx, id, filter.accountId, targetIds, now);
        sequence += 1;
      }
      await trx
        .updateTable('saved_filters')
        .set({ next_sequence: sequence, matched_through: matchedThrough })
        .where('id', '=', filter.id)
        .execute();
      return fresh.length;
    });
  }

  /**
   * An account event to the given webhook targets. With a `dedupeKey`, the same event is
   * recorded once however often (or from however many processes) it is emitted.
   */
  async recordEvent(
    accountId: string,
    type: string,
    data: object,
    targetIds: readonly string[],
    dedupeKey?: string,
  ): Promise<string | null> {
    const now = this.clock.now();
    const id = newId('msg');
    const body: MessageBody = { type, timestamp: new Date(now).toISOString(), data };
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('delivery_messages')
        .values({
          id,
          account_id: accountId,
          filter_id: null,
          sequence: null,
          type,
          payload: JSON.stringify(body),
          rows: 0,
          dedupe_key: dedupeKey ?? null,
          created_at: now,
        })
        .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return null;
      if (targetIds.length > 0) await this.#insertDeliveries(trx, id, accountId, targetIds, now);
      return id;
    });
  }

  /**
   * Deliveries whose next attempt is due, oldest first. A filter batch waits while an earlier
   * batch of the same filter to the same target is still pending, so each target gets a
   * filter's rows in order.
   */
  async due(limit: number): Promise<DueDelivery[]> {
    const now = this.clock.now();
    const rows = await this.db
      .selectFrom('deliveries as d')
      .innerJoin('delivery_messages as m', 'm.id', 'd.message_id')
      .select([
        'd.id',
        'd.target_id',
        'd.attempts',
        'd.next_attempt_at',
        'd.first_attempt_at',
        'm.id as message_id',
        'm.account_id',
        'm.filter_id',
        'm.sequence',
        'm.type',
        'm.payload',
        'm.rows',
        'm.dedupe_key',
        'm.created_at',
      ])
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where('d.target_id', 'is not', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('deliveries as earlier')
              .innerJoin('delivery_messages as em', 'em.id', 'earlier.message_id')
              .select(sql`1`.as('one'))
              .whereRef('earlier.target_id', '=', 'd.target_id')
              .whereRef('em.filter_id', '=', 'm.filter_id')
              .whereRef('em.sequence', '<', 'm.sequence')
              .where('earlier.status', '=', 'pending'),
          ),
        ),
      )
      .orderBy('d.next_attempt_at', 'asc')
      .orderBy('m.created_at', 'asc')
      .orderBy('m.sequence', 'asc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      target_id: row.target_id!,
      attempts: row.attempts,
      next_attempt_at: Number(row.next_attempt_at),
      first_attempt_at: row.first_attempt_at === null ? null : Number(row.first_attempt_at),
      message: {
        id: row.message_id,
        account_id: row.account_id,
        filter_id: row.filter_id,
        sequence: row.sequence,
        type: row.type,
        payload: row.payload,
        rows: row.rows,
        dedupe_key: row.dedupe_key,
        created_at: Number(row.created_at),
      },
    }));
  }

  /** Takes a due delivery for this process until the time it answers; null when another worker took it first. */
  async claim(delivery: DueDelivery): Promise<number | null> {
    return this.#claimFrom(delivery, delivery.next_attempt_at);
  }

  /**
   * Extends this process's claim on a delivery it is still sending (`claimedUntil`: what the last
   * claim or renewal answered); null when the claim is no longer ours (it lapsed and another
   * worker took the delivery, or it was marked meanwhile).
   */
  renewClaim(delivery: DueDelivery, claimedUntil: number): Promise<number | null> {
    return this.#claimFrom(delivery, claimedUntil);
  }

  /** Sets the delivery's claim to CLAIM_MS from now if its due time is still `expected`. */
  async #claimFrom(delivery: DueDelivery, expected: number): Promise<number | null> {
    const until = this.clock.now() + CLAIM_MS;
    const result = await this.db
      .updateTable('deliveries')
      .set({ next_attempt_at: until })
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', expected)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? until : null;
  }

  async succeeded(delivery: DueDelivery): Promise<void> {
    const now = this.clock.now();
    await this.db
      .updateTable('deliveries')
      .set({
        status: 'delivered',
        attempts: delivery.attempts + 1,
        first_attempt_at: delivery.first_attempt_at ?? now,
        last_attempt_at: now,
        delivered_at: now,
        next_attempt_at: null,
        last_error: null,
      })
      .where('id', '=', delivery.id)
      .execute();
  }

  /** Records a failed attempt: retried later, or dead once the retry window has passed. */
  async failed(delivery: DueDelivery, error: string): Promise<'retry' | 'dead'> {
    const now = this.clock.now();
    const firstAttemptAt = delivery.first_attempt_at ?? now;
    const attempts = delivery.attempts + 1;
    const dead = now - firstAttemptAt >= RETRY_WINDOW_MS;
    await this.db
      .updateTable('deliveries')
      .set({
        status: dead ? 'dead' : 'pending',
        attempts,
        first_attempt_at: firstAttemptAt,
        last_attempt_at: now,
        next_attempt_at: dead ? null : now + retryDelay(attempts),
        last_error: error.slice(0, 500),
      })
      .where('id', '=', delivery.id)
      .execute();
    return dead ? 'dead' : 'retry';
  }

  /** Sends a delivery again (same message id and body), with a fresh 24-hour retry window. */
  async redeliver(accountId: string, deliveryId: string): Promise<Delivery> {
    const row = await this.db
      .selectFrom('deliveries')
      .select(['id', 'status', 'target_id'])
      .where('id', '=', deliveryId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw appError('delivery_not_found', `No delivery ${deliveryId} on your account.`);
    if (row.target_id === null) {
      throw appError('nothing_to_redeliver', 'This batch went to the dashboard only; it has no target.');
    }
    if (row.status === 'pending') {
      throw appError('delivery_pending', 'This delivery is still being attempted; wait for it to finish.');
    }
    await this.db
      .updateTable('deliveries')
      .set({ status: 'pending', next_attempt_at: this.clock.now(), first_attempt_at: null, last_error: null })
      .where('id', '=', deliveryId)
      .execute();
    return (await this.log(accountId, { deliveryId, limit: 1, offset: 0 }))[0]!;
  }

  /** The delivery log of an account, newest first. */
  async log(
    accountId: string,
    options: { filterId?: string; deliveryId?: string; limit: number; offset: number },
  ): Promise<Delivery[]> {
    let query = this.db
      .selectFrom('deliveries as d')
      .innerJoin('delivery_messages as m', 'm.id', 'd.message_id')
      .select([
        'd.id',
        'd.target_id',
        'd.status',
        'd.attempts',
        'd.next_attempt_at',
        'd.delivered_at',
        'd.last_error',
        'm.id as message_id',
        'm.type',
        'm.filter_id',
        'm.sequence',
        'm.rows',
        'm.created_at',
      ])
      .where('d.account_id', '=', accountId);
    if (options.filterId) query = query.where('m.filter_id', '=', options.filterId);
    if (options.deliveryId) query = query.where('d.id', '=', options.deliveryId);
    const rows = await query
      .orderBy('m.created_at', 'desc')
      .orderBy('m.sequence', 'desc')
      .orderBy('d.id', 'asc')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return rows.map((row) => ({
      delivery_id: row.id,
      batch_id: row.message_id,
      type: row.type,
      filter_id: row.filter_id,
      sequence: row.sequence,
      created_at: iso(Number(row.created_at))!,
      rows: row.rows,
      target: row.target_id ?? 'dashboard',
      attempts: row.attempts,
      status: row.status as Delivery['status'],
      next_attempt_at:
        row.status === 'pending' ? iso(row.next_attempt_at === null ? null : Number(row.next_attempt_at)) : null,
      delivered_at: iso(row.delivered_at === null ? null : Number(row.delivered_at)),
      last_error: row.last_error,
    }));
  }

  /** The latest account events of one type (their bodies), newest first: the dashboard shows them to every plan. */
  async recentEvents(accountId: string, type: string, limit: number): Promise<MessageBody[]> {
    const rows = await this.db
      .selectFrom('delivery_messages')
      .select('payload')
      .where('account_id', '=', accountId)
      .where('type', '=', type)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => JSON.parse(row.payload) as MessageBody);
  }

  /** The message a delivery sends (for a redelivery's receiver checks and the CLI). */
  message(messageId: string): Promise<MessageRow | undefined> {
    return this.db.selectFrom('delivery_messages').selectAll().where('id', '=', messageId).executeTakeFirst();
  }

  async #insertDeliveries(
    trx: Kysely<DB>,
    messageId: string,
    accountId: string,
    targetIds: readonly string[],
    now: number,
  ): Promise<void> {
    const base = { message_id: messageId, account_id: accountId, created_at: now };
    const values =
      targetIds.length === 0
        ? [
            {
              ...base,
              id: newId('dlv'),
              target_id: null,
              status: 'delivered',
              delivered_at: now,
              next_attempt_at: null,
            },
          ]
        : targetIds.map((targetId) => ({
            ...base,
            id: newId('dlv'),
            target_id: targetId,
            status: 'pending',
            delivered_at: null,
            next_attempt_at: now,
          }));
    await trx.insertInto('deliveries').values(values).execute();
  }
}
