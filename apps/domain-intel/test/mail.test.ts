import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '@repo/server-kit';
import { testTimeout } from '@repo/server-kit/testing';
import { loadDomainIntelConfig } from '../src/config.ts';
import { createMailer, type MailLog, mailTransport } from '../src/mail/index.ts';
import { OutboxMailer } from '../src/mail/outbox-mailer.ts';
import { SmtpMailer } from '../src/mail/smtp-mailer.ts';
import { headerOf, startSmtpServer, type TestSmtpServer } from './smtp-helpers.ts';

const FROM = 'Domain Intelligence <no-reply@example.com>';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('SMTP mailer against a real SMTP server on loopback', () => {
  let smtp: TestSmtpServer;
  let mailer: SmtpMailer;
  before(async () => {
    smtp = await startSmtpServer({ refuse: (address) => address.startsWith('nobody@') });
    mailer = new SmtpMailer({ url: smtp.url, from: FROM, timeoutMs: testTimeout(5_000) });
  });
  after(async () => {
    await mailer?.close();
    await smtp?.close();
  });

  it('delivers text, HTML and an attachment, authenticated, from MAIL_FROM', async () => {
    const sent = await mailer.send({
      to: 'owner@example.com',
      subject: 'Your sign-in link',
      text: 'Open https://example.test/link to sign in.',
      html: '<p>Open <a href="https://example.test/link">this link</a>.</p>',
      attachments: [
        { filename: 'report.csv', content: 'domain,state\nexample.com,dropped\n', contentType: 'text/csv' },
      ],
    });
    const mail = await smtp.nextMail();
    assert.equal(mail.from, 'no-reply@example.com');
    assert.deepEqual(mail.to, ['owner@example.com']);
    assert.equal(headerOf(mail.raw, 'Subject'), 'Your sign-in link');
    assert.equal(headerOf(mail.raw, 'From'), FROM);
    assert.equal(headerOf(mail.raw, 'Message-ID'), sent.messageId);
    assert.match(mail.raw, /Open https:\/\/example\.test\/link to sign in\./);
    assert.match(mail.raw, /Content-Type: text\/html/);
    assert.match(mail.raw, /filename=report\.csv/);
    assert.match(mail.raw, new RegExp(Buffer.from('domain,state\nexample.com,dropped\n').toString('base64')));
  });

  it('keeps a subject with CR/LF in one header (no header injection)', async () => {
    await mailer.send({ to: 'owner@example.com', subject: 'Hello\r\nBcc: thief@example.net', text: 'x' });
    const mail = await smtp.nextMail();
    assert.equal(headerOf(mail.raw, 'Bcc'), undefined);
    assert.deepEqual(mail.to, ['owner@example.com']);
  });

  it('rejects when the server refuses the recipient', async () => {
    await assert.rejects(mailer.send({ to: 'nobody@example.com', subject: 'x', text: 'x' }), /550|Mailbox/);
  });

  it('rejects wrong credentials', async () => {
    const wrong = new SmtpMailer({
      url: smtp.url.replace('mailer:', 'intruder:'),
      from: FROM,
      timeoutMs: testTimeout(5_000),
    });
    try {
      await assert.rejects(wrong.send({ to: 'owner@example.com', subject: 'x', text: 'x' }), /Invalid|auth/i);
    } finally {
      await wrong.close();
    }
  });

  it('rejects (does not hang) when nothing listens on the SMTP port', async () => {
    const down = new SmtpMailer({
      url: `smtp://127.0.0.1:${await closedPort()}`,
      from: FROM,
      timeoutMs: testTimeout(2_000),
    });
    try {
      await assert.rejects(down.send({ to: 'owner@example.com', subject: 'x', text: 'x' }), /ECONNREFUSED/);
    } finally {
      await down.close();
    }
  });
});

describe('outbox mailer (embedded mode)', () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'outbox-'));
  });
  after(async () => rm(directory, { recursive: true, force: true }));

  it('writes one complete .eml per mail, its plain text beside it, and logs where', async () => {
    const lines: Array<{ fields: object; message: string }> = [];
    const log: MailLog = { info: (fields, message) => lines.push({ fields, message }) };
    const mailer = new OutboxMailer({
      directory: path.join(directory, 'outbox'),
      from: FROM,
      log,
      now: () => Date.parse('2026-03-10T12:00:00Z'),
    });
    const sent = await mailer.send({
      to: 'owner@example.com',
      subject: 'Confirm your address',
      text: 'Confirm: https://example.test/confirm',
      html: '<p>Confirm</p>',
      attachments: [{ filename: 'a.txt', content: Buffer.from('attached') }],
    });
    const files = (await readdir(path.join(directory, 'outbox'))).filter((file) => file.endsWith('.eml'));
    assert.equal(files.length, 1);
    assert.match(files[0] as string, /^2026-03-10T12-00-00-000Z-[0-9a-f-]+\.eml$/);
    assert.equal(sent.file, path.join(directory, 'outbox', files[0] as string));
    const raw = await readFile(sent.file as string, 'utf8');
    assert.equal(headerOf(raw, 'To'), 'owner@example.com');
    assert.equal(headerOf(raw, 'From'), FROM);
    assert.equal(headerOf(raw, 'Subject'), 'Confirm your address');
    assert.equal(headerOf(raw, 'Message-ID'), sent.messageId);
    assert.match(raw, /\r\n\r\n/, 'CRLF line ends, as RFC 5322 has them');
    assert.match(raw, /Confirm: https:\/\/example\.test\/confirm/);
    assert.match(raw, /filename=a\.txt/);
    assert.equal(headerOf(raw, 'Date'), 'Tue, 10 Mar 2026 12:00:00 +0000', 'dated by the service clock');
    const text = await readFile((sent.file as string).replace(/\.eml$/, '.txt'), 'utf8');
    assert.equal(
      text,
      'From: ' +
        FROM +
        '\nTo: owner@example.com\nSubject: Confirm your address\nDate: Tue, 10 Mar 2026 12:00:00 GMT\n' +
        'Attachment: a.txt\n\nConfirm: https://example.test/confirm\n',
    );
    assert.deepEqual((await readdir(path.join(directory, 'outbox'))).sort(), [
      path.basename(sent.file as string),
      path.basename(sent.file as string).replace(/\.eml$/, '.txt'),
    ]);
    assert.equal(lines.length, 1);
    assert.deepEqual(lines[0]?.fields, {
      mail: { to: 'owner@example.com', subject: 'Confirm your address', file: sent.file, messageId: sent.messageId },
    });
  });
});

describe('mail configuration', () => {
  const log: MailLog = { info: () => {} };
  const now = () => 0;

  it('auto: SMTP when SMTP_URL is set, the outbox in the embedded mode, none with a database server', () => {
    const smtp = loadDomainIntelConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' });
    assert.equal(mailTransport(smtp), 'smtp');
    assert.equal(createMailer(smtp, log, now)?.transport, 'smtp');
    const embedded = loadDomainIntelConfig({});
    assert.equal(createMailer(embedded, log, now)?.transport, 'outbox');
    const server = loadDomainIntelConfig({ DATABASE_URL: 'postgres://db/x' });
    assert.equal(createMailer(server, log, now), undefined);
    const forced = loadDomainIntelConfig({ DATABASE_URL: 'postgres://db/x', MAIL_TRANSPORT: 'outbox' });
    assert.equal(createMailer(forced, log, now)?.transport, 'outbox');
    assert.equal(createMailer(loadDomainIntelConfig({ MAIL_TRANSPORT: 'off' }), log, now), undefined);
  });

  it('refuses bad settings by name', () => {
    assert.throws(() => loadDomainIntelConfig({ SMTP_URL: 'http://mail.example.com' }), /SMTP_URL/);
    assert.throws(() => loadDomainIntelConfig({ MAIL_FROM: 'a@b.c\r\nBcc: x@y.z' }), /MAIL_FROM/);
    assert.throws(
      () => loadDomainIntelConfig({ MAIL_TRANSPORT: 'smtp' }),
      (error) => error instanceof ConfigError && /MAIL_TRANSPORT/.test(error.message),
    );
  });
});
