import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { DashboardBrowser } from './dashboard-session.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const GENERIC = /do not belong to one active account/;

/** The plain text of the outbox mail to `email` holding `marker`, once the mailer (which runs after the answer) wrote it. */
async function mailTo(outbox: string, email: string, marker: string): Promise<string> {
  for (;;) {
    const files = existsSync(outbox) ? (await readdir(outbox)).filter((file) => file.endsWith('.txt')) : [];
    const texts = await Promise.all(files.map((file) => readFile(path.join(outbox, file), 'utf8')));
    const mail = texts.find((text) => text.includes(`To: ${email}\n`) && text.includes(marker));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const target of databaseTargets()) {
  describe(`dashboard sign-in with the key of an ended plan (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let email: string;
    let key: string;
    before(async () => {
      // Sign-in links go to the outbox, read back from the .txt beside each mail.
      t = await createTestApp({ target, env: { MAIL_TRANSPORT: 'outbox', PUBLIC_URL: 'https://api.example.test' } });
      email = `ended-${Date.now()}@example.com`;
      t.clock.set('2026-01-31T10:00:00Z');
      key = (await t.app.ctx.accounts.signUp({ email, plan: 'starter' })).key.key;
      t.clock.set('2026-02-10T00:00:00Z');
      await t.app.ctx.accounts.cancelSubscription(email);
      // The period ends on 2026-02-28 10:00 UTC (a month after the 31st, clamped).
      t.clock.set('2026-03-02T09:00:00Z');
    });
    after(async () => t?.close());

    it('says the plan ended, and when, instead of "no active account"', async () => {
      const page = await new DashboardBrowser(t.app).signIn(email, key);
      assert.equal(page.statusCode, 401);
      assert.match(page.body, /Your Starter plan ended on February 28, 2026 \(it was cancelled\)/);
      assert.match(page.body, /sign-in link by e-mail/);
      assert.doesNotMatch(page.body, GENERIC);
    });

    it('tells nothing to someone with the key but another address, or with a revoked key', async () => {
      const other = await new DashboardBrowser(t.app).signIn('someone-else@example.com', key);
      assert.equal(other.statusCode, 401);
      assert.match(other.body, GENERIC);
      assert.doesNotMatch(other.body, /plan ended/);

      t.clock.set('2026-01-01T00:00:00Z');
      const paidEmail = `revoked-${Date.now()}@example.com`;
      const revoked = (await t.app.ctx.accounts.signUp({ email: paidEmail, plan: 'starter' })).key;
      await t.app.ctx.accounts.revokeKey(paidEmail, revoked.key_id);
      t.clock.set('2026-03-02T09:00:00Z');
      const page = await new DashboardBrowser(t.app).signIn(paidEmail, revoked.key);
      assert.match(page.body, GENERIC);
    });

    it('the sign-in link it points to opens the dashboard of the ended account', async () => {
      const browser = new DashboardBrowser(t.app);
      await browser.get('/dashboard');
      assert.equal((await browser.post('/dashboard/sign-in-link', { email })).statusCode, 200);
      const mail = await mailTo(path.join(t.config.DATA_DIR, 'outbox'), email, '/dashboard/sign-in-link?token=');
      const link = new URL(/https?:\/\/\S+\/dashboard\/sign-in-link\?token=\S+/.exec(mail)?.[0] ?? '');
      const signedIn = await browser.post('/dashboard/sign-in-link/confirm', {
        token: link.searchParams.get('token')!,
      });
      assert.equal(signedIn.statusCode, 303);
      const dashboard = await browser.get('/dashboard');
      assert.equal(dashboard.statusCode, 200);
      assert.match(dashboard.body, new RegExp(email.replace(/\./g, '\\.')));
    });
  });
}
