import type { FilterBatchData } from '@repo/contracts/domain-intel';
import { CSV_HEADER, toCsvLine } from '../../feed/feed-row.ts';
import type { Mailer } from '../../mail/index.ts';
import type { MessageBody, MessageRow } from '../outbox.ts';
import type { TargetRow } from '../targets.ts';

/** The mail of one filter batch: a short summary, and the rows as a CSV attachment. */
export function batchMail(target: TargetRow, message: MessageRow) {
  const body = JSON.parse(message.payload) as MessageBody<FilterBatchData>;
  const { data } = body;
  const csv = [CSV_HEADER.join(','), ...data.rows.map(toCsvLine)].join('\n');
  const shown = data.rows
    .slice(0, 20)
    .map((row) => `  ${row.domain}  (${row.status}${row.da === null ? '' : `, DA ${row.da}`})`);
  const more =
    data.rows.length > shown.length ? [`  … and ${data.rows.length - shown.length} more in the attachment`] : [];
  return {
    to: target.address,
    subject: `${data.rows.length} new match${data.rows.length === 1 ? '' : 'es'} for "${data.filter_name}"`,
    text: [
      `Your saved filter "${data.filter_name}" has ${data.rows.length} new matching domain${data.rows.length === 1 ? '' : 's'} (batch ${data.sequence}, ${data.batch_id}).`,
      '',
      ...shown,
      ...more,
      '',
      'Every row is in the attached CSV (the columns of GET /v1/domains/export?format=csv).',
    ].join('\n'),
    attachments: [
      {
        filename: `${data.filter_id}-${String(data.sequence).padStart(6, '0')}.csv`,
        content: `${csv}\n`,
        contentType: 'text/csv; charset=utf-8',
      },
    ],
  };
}

/** Sends filter batches to e-mail targets through the account mailer (SMTP_URL or the outbox). */
export class EmailSender {
  constructor(private readonly mailer: Mailer | undefined) {}

  async send(target: TargetRow, message: MessageRow): Promise<void> {
    if (!this.mailer) throw new Error('Mail is off on this server (MAIL_TRANSPORT / SMTP_URL); nothing was sent.');
    if (message.type !== 'filter.batch') throw new Error(`E-mail targets take filter batches, not ${message.type}.`);
    await this.mailer.send(batchMail(target, message));
  }
}
