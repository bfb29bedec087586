import type { MailMessage } from '../mail/index.ts';

export interface QuotaMailFacts {
  planName: string;
  limit: number;
  used: number;
  /** The next 00:00 UTC, epoch ms. */
  resetsAt: number;
  dashboardUrl: string;
}

const time = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const count = (n: number) => n.toLocaleString('en-US');
const turnOff = (dashboardUrl: string) =>
  `\n--\nYou get this mail because quota e-mails are on for your account. Turn them off under Notifications in the dashboard: ${dashboardUrl}\n`;

/** "You have used 80 % of today's calls": once per account and UTC day. */
export function quotaWarningMail(to: string, facts: QuotaMailFacts): MailMessage {
  return {
    to,
    subject: `You have used 80 % of today's ${count(facts.limit)} API calls`,
    text:
      `Your ${facts.planName} plan allows ${count(facts.limit)} calls per UTC day, and ${count(facts.used)} have been ` +
      `made today. When the rest are used, calls answer 429 quota_exceeded until the quota resets at ` +
      `${time(facts.resetsAt)}.\n\nSee today's usage, or upgrade for more calls, in the dashboard: ${facts.dashboardUrl}\n` +
      turnOff(facts.dashboardUrl),
  };
}

/** "Today's calls are used up": once per account and UTC day. */
export function quotaExhaustedMail(to: string, facts: QuotaMailFacts): MailMessage {
  return {
    to,
    subject: `Today's ${count(facts.limit)} API calls are used up`,
    text:
      `Your ${facts.planName} plan's ${count(facts.limit)} calls for today are used up: until the quota resets at ` +
      `${time(facts.resetsAt)}, every call answers 429 quota_exceeded (with Retry-After).\n\n` +
      `Upgrade for more calls in the dashboard: ${facts.dashboardUrl}\n` +
      turnOff(facts.dashboardUrl),
  };
}
