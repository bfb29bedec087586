import type { AccountEventType, EventData } from '@repo/contracts/domain-intel';
import { type Clock, errorMessage, whileClaimed } from '@repo/server-kit';
import type { AddressPolicy } from '@repo/webhooks/address-guard';
import type { Kysely } from 'kysely';
import type { AccountsService } from '../accounts/accounts-service.ts';
import type { DB } from '../db/schema.ts';
import type { Mailer } from '../mail/index.ts';
import { matchRound, ROUND_COLUMNS } from './match-round.ts';
import { CLAIM_MS, type DeliveryOutbox, type DueDelivery, type MessageRow } from './outbox.ts';
import type { SavedFilters } from './saved-filters.ts';
import { EmailSender } from './senders/email.ts';
import { SftpSender } from './senders/sftp.ts';
import { WebhookSender } from './senders/webhook.ts';
import type { DeliveryTargets, TargetRow } from './targets.ts';

/**
 * Feed rows updated this long before a filter's watermark are looked at again: a row written
 * by a run that overlapped the last matching round is not missed (filter_matches keeps them
 * from being delivered twice).
 */
const MATCH_MARGIN_MS = 60 * 60_000;
const DUE_PAGE = 200;

export interface MatchReport {
  filters: number;
  rows: number;
}

export interface SendReport {
  delivered: number;
  retrying: number;
  dead: number;
}

export interface DeliveryServiceOptions extends AddressPolicy {
  timeoutMs: number;
  userAgent: string;
  /** Stops starting new sends after this (wall clock, Date.now()). */
  sendBudgetMs: number;
}

interface Sender {
  send(target: TargetRow, message: MessageRow): Promise<void>;
}

/**
 * Saved-filter delivery and account events: a matching round turns the feed rows a pipeline
 * run changed into per-filter batches in the outbox; a sending round delivers what is due.
 */
export class DeliveryService {
  readonly #senders: Record<string, Sender>;
  readonly #webhooks: WebhookSender;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly deps: {
      accounts: AccountsService;
      filters: SavedFilters;
      targets: DeliveryTargets;
      outbox: DeliveryOutbox;
      mailer: Mailer | undefined;
    },
    private readonly options: DeliveryServiceOptions,
  ) {
    this.#webhooks = new WebhookSender(options);
    this.#senders = {
      webhook: this.#webhooks,
      email: new EmailSender(deps.mailer),
      sftp: new SftpSender({ ...options, pinHostKey: (id, key) => deps.targets.pinHostKey(id, key) }),
    };
  }

  /** Matching then sending: what runs after each pipeline job and on `deliveries run`. */
  async run(): Promise<{ matched: MatchReport; sent: SendReport }> {
    const matched = await this.matchNewRows();
    const sent = await this.sendDue();
    return { matched, sent };
  }

  /**
   * Every active saved filter gets, as its next batches, the rows it matches now that it has
   * not had yet: only rows updated since its watermark are considered, all filters against
   * one in-memory index of those rows.
   */
  async matchNewRows(): Promise<MatchReport> {
    const filters = await this.deps.filters.active((ids) => this.deps.accounts.plansOf(ids));
    if (filters.length === 0) return { filters: 0, rows: 0 };
    const now = this.clock.now();
    const since = Math.min(...filters.map((filter) => filter.matchedThrough)) - MATCH_MARGIN_MS;
    const rows = await this.db
      .selectFrom('feed_domains')
      .select(ROUND_COLUMNS)
      .where('updated_at', '>=', since)
      .execute();
    const [targets, plans] = await Promise.all([
      this.deps.filters.targetsOf(filters.map((filter) => filter.id)),
      this.deps.accounts.plansOf(filters.map((filter) => filter.accountId)),
    ]);
    const byId = new Map(filters.map((filter) => [filter.id, filter]));
    let total = 0;
    const matchedAny = new Set<string>();
    for (const [filterId, matched] of matchRound(rows, filters, now, MATCH_MARGIN_MS)) {
      const filter = byId.get(filterId)!;
      matchedAny.add(filterId);
      const external = plans.get(filter.accountId)?.plan.features.deliveryTargets ?? false;
      total += await this.deps.outbox.recordFilterBatches(
        filter,
        matched,
        external ? (targets.get(filter.id) ?? []) : [],
        now,
      );
    }
    const unchanged = filters.map((filter) => filter.id).filter((id) => !matchedAny.has(id));
    await this.deps.filters.advance(unchanged, now);
    return { filters: filters.length, rows: total };
  }

  /**
   * Sends every due delivery: per target one at a time (so a target gets a filter's batches
   * in order), targets side by side. A failure is retried with back-off; after 24 hours the
   * delivery is dead and the account gets a `delivery.failed` event.
   */
  async sendDue(): Promise<SendReport> {
    const report: SendReport = { delivered: 0, retrying: 0, dead: 0 };
    const deadline = Date.now() + this.options.sendBudgetMs;
    while (Date.now() < deadline) {
      const due = await this.deps.outbox.due(DUE_PAGE);
      if (due.length === 0) break;
      const targets = await this.deps.targets.rows([...new Set(due.map((delivery) => delivery.target_id))]);
      const byTarget = new Map<string, DueDelivery[]>();
      for (const delivery of due)
        byTarget.set(delivery.target_id, [...(byTarget.get(delivery.target_id) ?? []), delivery]);
      await Promise.all(
        [...byTarget.values()].map(async (queue) => {
          for (const delivery of queue) await this.#attempt(delivery, targets.get(delivery.target_id), report);
        }),
      );
    }
    return report;
  }

  /** Records an account event for the account's webhook targets (when its plan has them). */
  async emit<T extends AccountEventType>(
    accountId: string,
    type: T,
    data: EventData<T>,
    dedupeKey?: string,
  ): Promise<void> {
    const plan = (await this.deps.accounts.plansOf([accountId])).get(accountId)?.plan;
    const targetIds = plan?.features.accountWebhooks ? await this.deps.targets.webhookIds(accountId) : [];
    await this.deps.outbox.recordEvent(accountId, type, data, targetIds, dedupeKey);
  }

  async close(): Promise<void> {
    await this.#webhooks.close();
  }

  async #attempt(delivery: DueDelivery, target: TargetRow | undefined, report: SendReport): Promise<void> {
    // The claim is short (CLAIM_MS) and renewed while the send lasts, so a sender that dies
    // leaves its delivery due again soon rather than after the longest possible send.
    const { outbox } = this.deps;
    await whileClaimed(
      { take: () => outbox.claim(delivery), renew: (until) => outbox.renewClaim(delivery, until) },
      CLAIM_MS,
      () => this.#send(delivery, target, report),
    );
  }

  async #send(delivery: DueDelivery, target: TargetRow | undefined, report: SendReport): Promise<void> {
    try {
      if (!target) throw new Error('The target no longer exists.');
      const sender = this.#senders[target.kind];
      if (!sender) throw new Error(`Unknown target kind ${target.kind}.`);
      await sender.send(target, delivery.message);
      await this.deps.outbox.succeeded(delivery);
      report.delivered += 1;
    } catch (error) {
      const reason = errorMessage(error);
      const outcome = await this.deps.outbox.failed(delivery, reason);
      if (outcome === 'retry') {
        report.retrying += 1;
        return;
      }
      report.dead += 1;
      if (delivery.message.type === 'filter.batch') {
        await this.emit(
          delivery.message.account_id,
          'delivery.failed',
          {
            delivery_id: delivery.id,
            batch_id: delivery.message.id,
            filter_id: delivery.message.filter_id,
            target_id: delivery.target_id,
            attempts: delivery.attempts + 1,
            last_error: reason,
          },
          `delivery.failed:${delivery.id}:${delivery.attempts + 1}`,
        );
      }
    }
  }
}
