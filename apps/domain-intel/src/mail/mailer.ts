/** One file attached to a mail. */
export interface MailAttachment {
  filename: string;
  content: string | Buffer;
  /** MIME type; guessed from the file name when absent. */
  contentType?: string;
}

/** One outgoing account mail. The sender is the service's MAIL_FROM, never the caller's choice. */
export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text body every mail has (mail clients that show no HTML read this). */
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface SentMail {
  /** The Message-ID header of the mail as sent. */
  messageId: string;
  /** Where the outbox wrote the mail (`.eml`); absent for SMTP. */
  file?: string;
}

/**
 * Sends account mail (sign-in links, address confirmation, quota and billing notices).
 * `send` resolves once the mail is handed over (accepted by the SMTP server, or written to
 * the outbox) and rejects if it could not be; callers decide whether that fails their request.
 */
export interface Mailer {
  /** `smtp`: delivered through SMTP_URL; `outbox`: written to DATA_DIR/outbox (embedded mode). */
  readonly transport: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<SentMail>;
  close(): Promise<void>;
}

/** The part of a pino logger the mailers use (app.log and request.log fit). */
export interface MailLog {
  info(fields: object, message: string): void;
}
