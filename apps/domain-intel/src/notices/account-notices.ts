import { nextUtcMidnight } from '@repo/server-kit';
import type { AccountSummary, AccountsService } from '../accounts/accounts-service.ts';
import { isPlanId, PLANS } from '../accounts/plans.ts';
import { paymentFailedMail, subscriptionEndingMail } from '../billing/billing-mails.ts';
import type { BillingNotice } from '../billing/billing-notice.ts';
import type { AccountEventListener } from '../delivery/account-events.ts';
import type { Mailer, MailMessage } from '../mail/index.ts';
import { quotaExhaustedMail, quotaWarningMail } from './quota-mails.ts';
import type { SentNotices } from './sent-notices.ts';

export interface NoticeLog {
  warn(fields: object, message: string): void;
}

export interface AccountNoticesDeps {
  accounts: AccountsService;
  sent: SentNotices;
  mailer: Mailer;
  dashboardUrl: string;
  log: NoticeLog;
}

type AccountEventArgs = Parameters<AccountEventListener>;

/**
 * The mails an account's owner gets about the account: today's quota at 80 % and at 100 %
 * (once per account and UTC day), the subscription ending (once per billing period's end),
 * a payment failed (once per Stripe event). Whoever detects the occasion reports it (the
 * quota thresholds: the call that crosses them, the same detection that makes the
 * `quota.warning` account event); this decides the mail and sends it once, by a dedupe key
 * claimed in `sent_notices` before sending, so several instances or deliveries send one mail.
 */
export class AccountNotices {
  constructor(private readonly deps: AccountNoticesDeps) {}

  /** An account event (see delivery/account-events.ts); the ones with a mail get it. */
  async onAccountEvent(...[accountId, type, data]: AccountEventArgs): Promise<void> {
    if (type === 'quota.warning' || type === 'quota.exhausted') {
      const quota = data as { plan: string; limit: number; used: number; day: string };
      await this.#send(accountId, type, `${type}:${accountId}:${quota.day}`, (email, account) => {
        // Turned off in the dashboard: the account's webhooks still get the event.
        if (!account.quota_mails) return null;
        const facts = {
          planName: planName(quota.plan),
          limit: quota.limit,
          used: quota.used,
          resetsAt: nextUtcMidnight(Date.parse(`${quota.day}T00:00:00Z`)),
          dashboardUrl: this.deps.dashboardUrl,
        };
        return type === 'quota.warning' ? quotaWarningMail(email, facts) : quotaExhaustedMail(email, facts);
      });
    } else if (type === 'subscription.ending') {
      // The operator cancelled (CLI); a cancellation in Stripe's portal arrives as a billing notice.
      const ending = data as { plan: string; ends_at: string };
      const endsAt = Date.parse(ending.ends_at);
      await this.#send(accountId, type, `subscription.ending:${accountId}:${endsAt}`, (email) =>
        subscriptionEndingMail(email, planName(ending.plan), endsAt, this.deps.dashboardUrl),
      );
    }
  }

  /** A billing occasion told by the Stripe webhooks, `eventId` the event that told it. */
  async onBillingNotice(notice: BillingNotice, eventId: string): Promise<void> {
    if (notice.type === 'subscription.ending') {
      await this.#send(notice.accountId, notice.type, `subscription.ending:${notice.accountId}:${notice.endsAt}`, () =>
        subscriptionEndingMail(notice.email, PLANS[notice.plan].name, notice.endsAt, this.deps.dashboardUrl),
      );
    } else {
      await this.#send(notice.accountId, notice.type, `payment.failed:${notice.accountId}:${eventId}`, () =>
        paymentFailedMail(notice.email, PLANS[notice.plan].name, notice.nextAttemptAt, this.deps.dashboardUrl),
      );
    }
  }

  /**
   * Claims the notice, then mails it; a mail that cannot go gives the claim back and is logged,
   * never thrown. `compose` returns null when the owner does not want this mail.
   */
  async #send(
    accountId: string,
    kind: string,
    dedupeKey: string,
    compose: (email: string, account: AccountSummary) => MailMessage | null,
  ) {
    const { sent, mailer, accounts, log } = this.deps;
    const account = await accounts.findSummaryById(accountId);
    const message = account ? compose(account.email, account) : null;
    if (!message || !(await sent.claim(dedupeKey, accountId, kind))) return;
    try {
      await mailer.send(message);
    } catch (error) {
      await sent.release(dedupeKey);
      log.warn({ err: error, accountId, notice: kind }, 'account notice not mailed');
    }
  }
}

const planName = (id: string) => (isPlanId(id) ? PLANS[id].name : id);
