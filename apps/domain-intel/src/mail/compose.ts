import type Mail from 'nodemailer/lib/mailer/index.js';
import type { MailMessage } from './mailer.ts';

/** The nodemailer options of one message: the same fields for the SMTP and the outbox transports. */
export function mailOptions(from: string, message: MailMessage): Mail.Options {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html !== undefined ? { html: message.html } : {}),
    ...(message.attachments?.length
      ? {
          attachments: message.attachments.map((attachment) => ({
            filename: attachment.filename,
            content: attachment.content,
            ...(attachment.contentType ? { contentType: attachment.contentType } : {}),
          })),
        }
      : {}),
  };
}
