import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { mailOptions } from './compose.ts';
import type { Mailer, MailMessage, SentMail } from './mailer.ts';

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://…:465. */
  url: string;
  from: string;
  /** Connect, greeting and socket timeouts, ms: a dead SMTP server fails a send instead of hanging it. */
  timeoutMs: number;
}

/** Mail through an SMTP server (nodemailer's SMTP transport, one pooled connection set). */
export class SmtpMailer implements Mailer {
  readonly transport = 'smtp' as const;
  private readonly transporter: Transporter<SMTPTransport.SentMessageInfo>;

  constructor(private readonly options: SmtpMailerOptions) {
    const url = new URL(options.url);
    this.transporter = nodemailer.createTransport({
      url: options.url,
      pool: true,
      maxConnections: 2,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
      // Loopback relays (a local Postfix, the tests' server) rarely hold a certificate for 127.0.0.1.
      tls: { rejectUnauthorized: !isLoopback(url.hostname) },
    } as SMTPTransport.Options);
  }

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transporter.sendMail(mailOptions(this.options.from, message));
    return { messageId: info.messageId };
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.');
}
