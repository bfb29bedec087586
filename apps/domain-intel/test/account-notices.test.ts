import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, testTimeout } from '@repo/server-kit/testing';
import type { FastifyPluginAsync } from 'fastify';
import { DashboardBrowser } from './dashboard-session.ts';
import { bearer, createTestApp, quotaStoreVariants, type TestApp } from './helpers.ts';
import { headerOf, mailText, startSmtpServer, type TestSmtpServer } from './smtp-helpers.ts';

/** A counted keyed route that costs nothing but its unit of quota. */
const ping: FastifyPluginAsync = async (v1) => {
  v1.get('/ping', async () => ({ data: 'pong' }));
};

let counter = 0;

for (const variant of quotaStoreVariants(databaseTargets())) {
  describe(`quota mails at 80 % and 100 % (${variant.name})`, { skip: variant.skip }, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    before(async () => {
      smtp = await startSmtpServer();
      t = await createTestApp({
        target: variant.target,
        redis: variant.redis,
        env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://di.example.test' },
        extraV1Routes: ping,
      });
    });
    after(async () => {
      await t?.close();
      await smtp?.close();
    });

    const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
    /** Mails leave in the background after the call that crossed a threshold: wait for them. */
    async function settle(email: string, expected: number) {
      for (let attempt = 0; attempt < 100 && mailsTo(email).length < expected; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, testTimeout(20)));
      }
      // A little longer, so a mail too many would have arrived too.
      await new Promise((resolve) => setTimeout(resolve, testTimeout(100)));
      return mailsTo(email);
    }

    it('mails the owner once when a call reaches 80 % of the day, once when it takes the last unit, never more', async () => {
      const email = `quota${++counter}-${Date.now()}@example.com`;
      const key = await t.keyFor('free', email);
      const call = () => t.app.inject({ url: '/v1/ping', headers: bearer(key) });
      // Two instances share the counter; the one that serves the crossing call sends the mail.
      const other = await t.spawnInstance();
      for (let i = 1; i <= 79; i++)
        assert.equal(
          (await (i % 2 ? call() : other.inject({ url: '/v1/ping', headers: bearer(key) }))).statusCode,
          200,
        );
      assert.equal((await settle(email, 0)).length, 0, 'nothing below 80 %');

      assert.equal((await call()).statusCode, 200);
      const [warning] = await settle(email, 1);
      assert.ok(warning);
      assert.equal(headerOf(warning.raw, 'Subject'), "You have used 80 % of today's 100 API calls");
      assert.match(mailText(warning.raw), /Free plan allows 100 calls per UTC day, and 80 have been made today/);
      assert.match(mailText(warning.raw), /resets at 2026-03-11 00:00 UTC/);
      assert.match(mailText(warning.raw), /https:\/\/di\.example\.test\/dashboard/);

      for (let i = 81; i <= 100; i++) assert.equal((await call()).statusCode, 200);
      for (let i = 0; i < 5; i++) assert.equal((await call()).statusCode, 429);
      const mails = await settle(email, 2);
      assert.equal(mails.length, 2);
      assert.equal(headerOf(mails[1]!.raw, 'Subject'), "Today's 100 API calls are used up");
      assert.match(mailText(mails[1]!.raw), /every call answers 429 quota_exceeded/);

      // The next UTC day crosses both lines again: one more of each.
      t.clock.set('2026-03-11T09:00:00Z');
      try {
        for (let i = 1; i <= 100; i++) assert.equal((await call()).statusCode, 200);
        const nextDay = await settle(email, 4);
        assert.equal(nextDay.length, 4);
        assert.match(mailText(nextDay[2]!.raw), /resets at 2026-03-12 00:00 UTC/);
      } finally {
        t.clock.set('2026-03-10T12:00:00Z');
      }
      const { account_id } = await t.app.ctx.accounts.summary(email);
      const rows = await t.app.ctx.database.db
        .selectFrom('sent_notices')
        .select('kind')
        .where('account_id', '=', account_id)
        .execute();
      assert.deepEqual(rows.map((row) => row.kind).sort(), [
        'quota.exhausted',
        'quota.exhausted',
        'quota.warning',
        'quota.warning',
      ]);
    });

    it('sends no quota mail once the owner turns them off in the dashboard, and again once turned back on', async () => {
      const email = `quiet${++counter}-${Date.now()}@example.com`;
      const key = await t.keyFor('free', email);
      const call = () => t.app.inject({ url: '/v1/ping', headers: bearer(key) });
      const browser = new DashboardBrowser(t.app);
      assert.equal((await browser.signIn(email, key)).statusCode, 303);
      const page = await browser.get('/dashboard');
      assert.match(page.body, /name="quota_mails" value="on" checked/, 'on by default');
      // An unticked checkbox is simply absent from the form.
      const off = await browser.post('/dashboard/notifications');
      assert.equal(off.statusCode, 303);
      assert.match((await browser.get(String(off.headers.location))).body, /Quota e-mails are off/);
      assert.doesNotMatch((await browser.get('/dashboard')).body, /name="quota_mails" value="on" checked/);
      assert.equal((await t.app.ctx.accounts.summary(email)).quota_mails, false);

      for (let i = 1; i <= 100; i++) assert.equal((await call()).statusCode, 200);
      assert.equal((await settle(email, 0)).length, 0, 'no mail at 80 % or 100 %');

      await browser.post('/dashboard/notifications', { quota_mails: 'on' });
      assert.equal((await t.app.ctx.accounts.summary(email)).quota_mails, true);
      t.clock.set('2026-03-11T09:00:00Z');
      try {
        for (let i = 1; i <= 80; i++) assert.equal((await call()).statusCode, 200);
        const [warning] = await settle(email, 1);
        assert.equal(headerOf(warning!.raw, 'Subject'), "You have used 80 % of today's 100 API calls");
        assert.match(
          mailText(warning!.raw),
          /Turn them off under Notifications in the dashboard: https:\/\/di\.example\.test\/dashboard/,
        );
      } finally {
        t.clock.set('2026-03-10T12:00:00Z');
      }
    });

    it('refuses the notifications form without a session or a CSRF token', async () => {
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/dashboard/notifications',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'quota_mails=on',
      });
      assert.equal(anonymous.statusCode, 403);
    });

    it('sends no quota mail to Enterprise (no daily cap)', async () => {
      const email = `unlimited${++counter}-${Date.now()}@example.com`;
      const key = await t.keyFor('enterprise', email);
      for (let i = 0; i < 120; i++)
        assert.equal((await t.app.inject({ url: '/v1/ping', headers: bearer(key) })).statusCode, 200);
      assert.equal((await settle(email, 0)).length, 0);
    });
  });
}

describe('subscription ending mail when the operator cancels (CLI)', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  before(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ target: databaseTargets()[0]!, env: { SMTP_URL: smtp.url } });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails "your plan ends on …" once', async () => {
    const email = `cancelled-${Date.now()}@example.com`;
    await t.keyFor('starter', email);
    const cancelled = await t.app.ctx.accounts.cancelSubscription(email);
    const mail = await smtp.nextMail();
    assert.deepEqual(mail.to, [email]);
    const endsOn = new Date(cancelled.subscription.periodEnd as number).toISOString().slice(0, 10);
    assert.equal(headerOf(mail.raw, 'Subject'), `Your Starter plan ends on ${endsOn}`);
    assert.match(mailText(mail.raw), /keep working until/);
  });
});

describe('account notices at shutdown', () => {
  it('a notice caused just before the app closes is mailed before the mailer and the database close', async () => {
    const [sqlite] = databaseTargets();
    // No SMTP_URL: the embedded mode writes each mail as a file under DATA_DIR/outbox.
    const t = await createTestApp({ target: sqlite! });
    try {
      const email = `shutdown${++counter}-${Date.now()}@example.com`;
      const { account } = await t.app.ctx.accounts.signUp({ email, plan: 'free' });
      const data = { plan: 'free', limit: 100, used: 80, day: '2026-03-10' };
      t.app.ctx.onAccountEvent(account.account_id, 'quota.warning', data, `quota.warning:${account.account_id}`);
      await t.app.close();
      const outbox = path.join(t.config.DATA_DIR, 'outbox');
      const mails = existsSync(outbox)
        ? readdirSync(outbox)
            .filter((file) => file.endsWith('.eml'))
            .map((file) => readFileSync(path.join(outbox, file), 'utf8'))
        : [];
      assert.equal(
        mails.filter((mail) => mail.includes(email)).length,
        1,
        'the warning is in the outbox once the app has closed',
      );
    } finally {
      await t.close();
    }
  });
});
