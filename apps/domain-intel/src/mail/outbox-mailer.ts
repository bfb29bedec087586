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
 * mail client opens; one log line names it. Beside it `<time>-<id>.txt` holds the plain text as
 * the reader sees it: the `.eml`'s text part is quoted-printable, whose soft line breaks cut a
 * link copied from `cat` in two. Files appear whole (written aside, then renamed).
 */
export class OutboxMailer implements Mailer {
  readonly transport = 'outbox' as const;
  private readonly composer: Transporter<StreamTransport.SentMessageInfo>;

  constructor(private readonly options: OutboxMailerOptions) {
    this.composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  }

  async send(message: MailMessage): Promise<SentMail> {
    const date = new Date(this.options.now());
    const info = await this.composer.sendMail({ ...mailOptions(this.options.from, message), date });
    const stamp = date.toISOString().replace(/[:.]/g, '-');
    const base = path.join(this.options.directory, `${stamp}-${randomUUID()}`);
    const file = `${base}.eml`;
    await mkdir(this.options.directory, { recursive: true });
    // The text first: whoever waits for the .eml finds its readable twin already there.
    await writeWhole(`${base}.txt`, plainText(this.options.from, message, date));
    await writeWhole(file, info.message as Buffer);
    this.options.log.info(
      { mail: { to: message.to, subject: message.subject, file, messageId: info.messageId } },
      'mail written to the outbox (no SMTP_URL)',
    );
    return { messageId: info.messageId, file };
  }

  async close(): Promise<void> {}
}

/** The mail as a person reads it: the headers that matter, a blank line, then the text (no transfer encoding to undo). */
export function plainText(from: string, message: MailMessage, date: Date): string {
  const attachments = message.attachments?.map((attachment) => `Attachment: ${attachment.filename}\n`).join('') ?? '';
  return `From: ${from}\nTo: ${message.to}\nSubject: ${message.subject}\nDate: ${date.toUTCString()}\n${attachments}\n${message.text}${message.text.endsWith('\n') ? '' : '\n'}`;
}

async function writeWhole(file: string, content: string | Buffer): Promise<void> {
  const partial = `${file}.partial`;
  await writeFile(partial, content, { mode: 0o600 });
  await rename(partial, file);
}
