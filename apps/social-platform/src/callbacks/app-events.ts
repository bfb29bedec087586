import { randomBytes } from 'node:crypto';
import { type Clock, errorMessage, whileClaimed } from '@repo/server-kit';
import { type AddressPolicy, assertAllowedUrl, BlockedAddressError } from '@repo/webhooks/address-guard';
import { RETRY_WINDOW_MS, retryDelay } from '@repo/webhooks/retry-schedule';
import { type HostResolver, refusedAddressOf, resolveWithSystem } from '@repo/webhooks/target-host';
import { type WebhookSender, WebhookStatusError } from '@repo/webhooks/webhook-sender';
import type { Kysely, Selectable } from 'kysely';
import type { ApplicationsService } from '../applications/applications-service.ts';
import type { AppEventTable, DB } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { webhookSecretOf } from './webhook-secret.ts';

export type AppEvent = Selectable<AppEventTable>;

/** The events an app's callback URL receives. */
export type AppEventType = 'app.deauthorized' | 'user.data_deletion_requested' | 'app.permissions_changed';

/**
 * A claimed event is not picked up by another instance for this long. Its sender renews the claim
 * every third of it while the send lasts (server-kit `whileClaimed`), so a send may take longer,
 * and an event whose sender died is due again at most this long after; `serve`'s round (every
 * 15 s) then sends it: within 45 s of the death.
 */
export const CLAIM_MS = 30_000;
/** How often `serve` looks for app callbacks due (retries, and events another instance left). */
export const CALLBACK_ROUND_MS = 15_000;
const DUE_PAGE = 100;
/** Events of an app the console shows. */
const LOG_ROWS = 50;

/**
 * Events for apps, owner of `app_events`: recorded with the change that caused them (the row is
 * the outbox), then POSTed to the app's callback URL by the shared webhook sender, signed with
 * the key derived from the app secret, retried with the shared back-off for 24 hours; the
 * developer console shows each with its attempts and can send it again.
 */
export class AppEvents {
  #round: Promise<unknown> = Promise.resolve();
  #again = false;
  #running = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly apps: ApplicationsService,
    private readonly sender: WebhookSender,
    private readonly options: AddressPolicy & {
      deliverOnEmit: boolean;
      log?: { warn(obj: object, msg: string): void };
      /** How callback host names are resolved for the check when they are set (tests replace it). */
      resolve?: HostResolver;
    },
  ) {}

  /**
   * Sets (or with '' clears) the app's callback URL once the SSRF guard allows it: https (http too
   * in the insecure mode), no credentials, and a host that resolves to public addresses only. Every
   * send checks again at connection time; this check makes a bad URL an error now, not a day of
   * failed deliveries.
   */
  async setCallbackUrl(appId: number, callbackUrl: string): Promise<void> {
    const trimmed = callbackUrl.trim();
    if (trimmed === '') return this.apps.setCallbackUrl(appId, null);
    if (trimmed.length > 2000) throw invalidCallbackUrl('must be at most 2000 characters');
    let url: URL;
    try {
      url = assertAllowedUrl(trimmed, this.options);
    } catch (error) {
      throw invalidCallbackUrl(errorMessage(error));
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const refused = await refusedAddressOf(host, this.options, this.options.resolve ?? resolveWithSystem);
    if (refused !== undefined)
      throw invalidCallbackUrl(`${host} resolves to ${refused}, which is not a public address`);
    await this.apps.setCallbackUrl(appId, url.toString());
  }

  /**
   * Records an event for the app: pending when it has a callback URL, kept as `no_callback`
   * otherwise (the log still shows it). Sent at once in this process when `deliverOnEmit`.
   */
  async emit(appId: number, type: AppEventType, data: Record<string, unknown>): Promise<AppEvent> {
    const app = await this.apps.getById(appId);
    const now = this.clock.now();
    const id = `msg_${randomBytes(16).toString('base64url')}`;
    const payload = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
    const event = await this.db
      .insertInto('app_events')
      .values({
        id,
        app_id: appId,
        type,
        payload,
        created_at: now,
        state: app.callback_url ? 'pending' : 'no_callback',
        next_attempt_at: now,
        first_attempt_at: null,
        last_attempt_at: null,
        last_status: null,
        last_error: null,
        delivered_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (app.callback_url && this.options.deliverOnEmit) this.kick();
    return event;
  }

  /** Starts a sending round in the background (one at a time; a kick during a round runs another after it). */
  kick(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    this.#round = (async () => {
      try {
        do {
          this.#again = false;
          await this.deliverDue();
        } while (this.#again);
      } catch (error) {
        this.options.log?.warn({ err: error }, 'app callbacks: a sending round failed');
      } finally {
        this.#running = false;
      }
    })();
  }

  /** Resolves when the background round started by `kick` is over (tests, shutdown). */
  settled(): Promise<unknown> {
    return this.#round;
  }

  /** Sends every due event once; returns how many were delivered and how many will be retried or were given up. */
  async deliverDue(): Promise<{ delivered: number; retrying: number; failed: number }> {
    const report = { delivered: 0, retrying: 0, failed: 0 };
    const due = await this.db
      .selectFrom('app_events')
      .selectAll()
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', this.clock.now())
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(DUE_PAGE)
      .execute();
    for (const event of due) {
      await whileClaimed(
        { take: () => this.#claimFrom(event, event.next_attempt_at), renew: (until) => this.#claimFrom(event, until) },
        CLAIM_MS,
        async () => {
          report[await this.#attempt(event)]++;
        },
      );
    }
    return report;
  }

  /**
   * Claims (or renews this instance's claim on) an event: its due time moves CLAIM_MS ahead if it
   * is still `expected`, so another instance that read it too finds it claimed and skips it.
   * Returns the claim's end, or null when the event is no longer this instance's to send.
   */
  async #claimFrom(event: AppEvent, expected: number): Promise<number | null> {
    const until = this.clock.now() + CLAIM_MS;
    const result = await this.db
      .updateTable('app_events')
      .set({ next_attempt_at: until })
      .where('id', '=', event.id)
      .where('state', '=', 'pending')
      .where('next_attempt_at', '=', expected)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? until : null;
  }

  async #attempt(event: AppEvent): Promise<'delivered' | 'retrying' | 'failed'> {
    const app = await this.apps.findById(event.app_id);
    const now = this.clock.now();
    const firstAttemptAt = event.first_attempt_at ?? now;
    const attempts = event.attempts + 1;
    let status: number | null = null;
    let problem: string | undefined;
    if (!app?.callback_url) {
      problem = 'The app has no callback URL.';
    } else {
      try {
        await this.sender.send({
          url: app.callback_url,
          secret: webhookSecretOf(this.apps.secretOf(app)),
          id: event.id,
          payload: event.payload,
        });
        status = 200;
      } catch (error) {
        if (error instanceof WebhookStatusError) status = error.statusCode;
        problem = describe(error);
      }
    }
    const sent = { attempts, first_attempt_at: firstAttemptAt, last_attempt_at: now };
    if (problem === undefined) {
      await this.db
        .updateTable('app_events')
        .set({ ...sent, state: 'delivered', delivered_at: now, last_status: status, last_error: null })
        .where('id', '=', event.id)
        .execute();
      return 'delivered';
    }
    const givenUp = now - firstAttemptAt >= RETRY_WINDOW_MS;
    await this.db
      .updateTable('app_events')
      .set({
        ...sent,
        state: givenUp ? 'failed' : 'pending',
        next_attempt_at: now + retryDelay(attempts),
        last_status: status,
        last_error: problem.slice(0, 500),
      })
      .where('id', '=', event.id)
      .execute();
    return givenUp ? 'failed' : 'retrying';
  }

  /** Sends an event again under the same webhook-id (the developer's Redeliver): due now, a new 24 hours of retries. */
  async redeliver(appId: number, eventId: string): Promise<void> {
    const app = await this.apps.getById(appId);
    if (!app.callback_url) throw appError('invalid_application', 'callbackUrl: set a callback URL first');
    const result = await this.db
      .updateTable('app_events')
      .set({ state: 'pending', next_attempt_at: this.clock.now(), first_attempt_at: null })
      .where('id', '=', eventId)
      .where('app_id', '=', appId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw appError('app_event_not_found', `The app has no event ${eventId}.`);
    if (this.options.deliverOnEmit) this.kick();
  }

  /** Deletes events delivered, given up or never sent more than `keepMs` ago (the log shows recent ones); returns how many. */
  async purgeOld(keepMs = 30 * 86_400_000): Promise<number> {
    const result = await this.db
      .deleteFrom('app_events')
      .where('state', '!=', 'pending')
      .where('created_at', '<', this.clock.now() - keepMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The app's newest events, newest first: the console's delivery log. */
  recent(appId: number): Promise<AppEvent[]> {
    return this.db
      .selectFrom('app_events')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(LOG_ROWS)
      .execute();
  }
}

const invalidCallbackUrl = (problem: string) => appError('invalid_application', `callbackUrl: ${problem}`);

function describe(error: unknown): string {
  if (error instanceof WebhookStatusError || error instanceof BlockedAddressError) return error.message;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
