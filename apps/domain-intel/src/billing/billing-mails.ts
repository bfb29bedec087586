import type { MailMessage } from '../mail/index.ts';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** "Your subscription ends on …": sent once when a cancellation is scheduled. */
export function subscriptionEndingMail(
  to: string,
  planName: string,
  endsAt: number,
  dashboardUrl: string,
): MailMessage {
  return {
    to,
    subject: `Your ${planName} plan ends on ${day(endsAt)}`,
    text:
      `Your ${planName} subscription was cancelled. Your API keys keep working until ${day(endsAt)} (UTC), ` +
      `the end of the period you paid for; after that every call answers 401 key_revoked.\n\n` +
      `Changed your mind? Renew it under "Manage billing" in the dashboard: ${dashboardUrl}\n`,
  };
}

/** "A payment failed": sent once per failed attempt Stripe reports. */
export function paymentFailedMail(
  to: string,
  planName: string,
  nextAttempt: number | null,
  dashboardUrl: string,
): MailMessage {
  const retry = nextAttempt
    ? `Stripe will try again on ${day(nextAttempt)}.`
    : 'Stripe will not try again; the subscription ends.';
  return {
    to,
    subject: `Payment for your ${planName} plan failed`,
    text:
      `We could not charge your card for the ${planName} plan. ${retry} Your API keys keep working while Stripe retries; ` +
      `if every attempt fails the subscription ends and the keys answer 401 key_revoked.\n\n` +
      `Update your card under "Manage billing" in the dashboard: ${dashboardUrl}\n`,
  };
}
