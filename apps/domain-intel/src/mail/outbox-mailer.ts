import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type StreamTransport from 'nodemailer/lib/stream-transport/index.js';
import { mailOptions } from './compose.ts';
import type { Mailer, MailLog, MailMessage, SentMail } from './mailer.ts';

export interface OutboxMailerOptions {
  /** Directory the `.eml` files go to (DATA_DIR/outbox). */
  directory: string;
  from: string;
  log: MailLog;
  /** Names the files in time order (the service clock, so tests with a settable clock read them in order). */
  now: () => number;
}

/**
 * The embedded mode's mail: each message is built as a complete RFC 5322 message by nodemailer
 * (the same MIME tree SMTP would carry) and written to `<directory>/<time>-<id>.eml`, which any
 * mail client opens; one log line names it. Files appear whole (written aside, then renamed).
 */
export class OutboxMailer implements Mailer {
  readonly transport = 'outbox' as const;
  private readonly composer: Transporter<StreamTransport.SentMessageInfo>;

  constructor(private readonly options: OutboxMailerOptions) {
    this.composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  }

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.composer.sendMail(mailOptions(this.options.from, message));
    const stamp = new Date(this.options.now()).toISOString().replace(/[:.]/g, '-');
    const file = path.join(this.options.directory, `${stamp}-${randomUUID()}.eml`);
    await mkdir(this.options.directory, { recursive: true });
    const partial = `${file}.partial`;
    await writeFile(partial, info.message as Buffer, { mode: 0o600 });
    await rename(partial, file);
    this.options.log.info(
      { mail: { to: message.to, subject: message.subject, file, messageId: info.messageId } },
      'mail written to the outbox (no SMTP_URL)',
    );
    return { messageId: info.messageId, file };
  }

  async close(): Promise<void> {}
}
