import path from 'node:path';
import type { Config } from '../config.ts';
import type { Mailer, MailLog } from './mailer.ts';
import { OutboxMailer } from './outbox-mailer.ts';
import { SmtpMailer } from './smtp-mailer.ts';

export type { MailAttachment, Mailer, MailLog, MailMessage, SentMail } from './mailer.ts';

/**
 * The account mailer MAIL_TRANSPORT selects: `auto` sends through SMTP_URL when it is set, else
 * writes to DATA_DIR/outbox in the embedded mode (no DATABASE_URL), else there is no mail
 * (undefined) and the features that need it say so.
 */
export function createMailer(config: Config, log: MailLog, now: () => number): Mailer | undefined {
  const transport = mailTransport(config);
  if (transport === 'smtp' && config.SMTP_URL) {
    return new SmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM, timeoutMs: config.SMTP_TIMEOUT_MS });
  }
  if (transport === 'outbox') {
    return new OutboxMailer({ directory: path.join(config.DATA_DIR, 'outbox'), from: config.MAIL_FROM, log, now });
  }
  return undefined;
}

export function mailTransport(config: Config): 'smtp' | 'outbox' | 'off' {
  if (config.MAIL_TRANSPORT !== 'auto') return config.MAIL_TRANSPORT;
  if (config.SMTP_URL) return 'smtp';
  return config.DATABASE_URL ? 'off' : 'outbox';
}
