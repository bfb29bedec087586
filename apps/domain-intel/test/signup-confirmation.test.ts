import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { DashboardBrowser } from './dashboard-session.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { headerOf, linkIn, mailText, startSmtpServer, type TestSmtpServer } from './smtp-helpers.ts';

const PUBLIC_URL = 'https://api.example.test';
let counter = 0;
const newClient = () => `203.0.113.${++counter}`;
const newEmail = (label: string) => `${label}${++counter}-${Date.now()}@example.com`;

for (const target of databaseTargets()) {
  describe(`sign-up confirms the address by mail (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    before(async () => {
      smtp = await startSmtpServer({ refuse: (address) => address.startsWith('bounce') });
      t = await createTestApp({ target, env: { SMTP_URL: smtp.url, PUBLIC_URL, SIGNUP_RATE_PER_HOUR: '50' } });
    });
    after(async () => {
      await t?.close();
      await smtp?.close();
    });

    /** The sign-up form in a browser of its own. */
    async function signUp(email: string, client = newClient()) {
      const browser = new DashboardBrowser(t.app, {}, client);
      await browser.get('/signup');
      return { browser, page: await browser.post('/signup', { email }) };
    }

    /** The next mail to `email`, and the confirmation link in it. */
    async function confirmationMailTo(email: string) {
      const mail = await waitForMail(email);
      return { mail, link: linkIn(mail.raw, '/signup/confirm') };
    }

    async function waitForMail(email: string, skip = 0) {
      for (let attempt = 0; attempt < 100; attempt++) {
        const mails = smtp.received.filter((entry) => entry.to.includes(email));
        if (mails.length > skip) return mails[skip]!;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no mail to ${email}`);
    }

    /** Opens a link from a mail in a browser and presses its button; returns the page shown after. */
    async function confirm(link: URL, browser = new DashboardBrowser(t.app)) {
      const page = await browser.get(link.pathname + link.search);
      if (page.statusCode !== 200) return page;
      assert.match(page.body, /data-action="confirm-signup"/);
      assert.doesNotMatch(page.body, /di_live_/, 'opening the link shows no key: a mail scanner may have opened it');
      return browser.post('/signup/confirm', { token: link.searchParams.get('token') ?? '' });
    }

    it('mails a link and creates nothing; the page the link opens creates the account and shows the key once', async () => {
      const email = newEmail('confirm');
      const { page } = await signUp(email);
      assert.equal(page.statusCode, 202);
      assert.match(page.body, /data-testid="signup-sent"/);
      assert.doesNotMatch(page.body, /di_live_/);
      assert.equal(page.headers['x-ratelimit-limit'], '50');
      assert.equal(await t.app.ctx.accounts.findSummary(email), undefined, 'no account before the link is used');

      const { mail, link } = await confirmationMailTo(email);
      assert.match(headerOf(mail.raw, 'Subject') ?? '', /Confirm your e-mail address/);
      assert.equal(link.origin, PUBLIC_URL, 'links use PUBLIC_URL');
      assert.match(mailText(mail.raw), /works for 24 hours/);

      const shown = await confirm(link);
      assert.equal(shown.statusCode, 201);
      assert.equal(shown.headers['cache-control'], 'no-store');
      const key = /data-testid="signup-key">(di_live_\w+)</.exec(shown.body)?.[1];
      assert.ok(key, 'the key is on the page');
      const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      assert.equal(quota.json().data.plan, 'free');

      const again = await confirm(link);
      assert.equal(again.statusCode, 400, 'the link works once');
      assert.match(again.body, /expired or was already used/);
      assert.doesNotMatch(again.body, /di_live_/);
    });

    it('a JSON sign-up answers 202 "confirmation_sent"; JSON confirmation answers 201 with the key', async () => {
      const email = newEmail('json');
      const started = await t.app.inject({
        method: 'POST',
        url: '/signup',
        payload: { email },
        remoteAddress: newClient(),
      });
      assert.equal(started.statusCode, 202);
      const data = started.json().data;
      assert.equal(data.email, email);
      assert.equal(data.status, 'confirmation_sent');
      assert.equal(data.expires_at, new Date(t.clock.now() + 24 * 3_600_000).toISOString());
      const { link } = await confirmationMailTo(email);
      const confirmed = await t.app.inject({
        method: 'POST',
        url: '/signup/confirm',
        payload: { token: link.searchParams.get('token') },
      });
      assert.equal(confirmed.statusCode, 201);
      assert.equal(confirmed.json().data.email, email);
      assert.match(confirmed.json().data.key, /^di_live_/);
      const replay = await t.app.inject({
        method: 'POST',
        url: '/signup/confirm',
        payload: { token: link.searchParams.get('token') },
      });
      assert.equal(replay.statusCode, 400);
      assert.equal(replay.json().error.code, 'signup_link_invalid');
    });

    it('expires an unconfirmed sign-up after 24 hours; signing up again works', async () => {
      const email = newEmail('late');
      await signUp(email);
      const { link } = await confirmationMailTo(email);
      t.clock.advance(24 * 3_600_000);
      try {
        const late = await confirm(link);
        assert.equal(late.statusCode, 400);
        assert.match(late.body, /signup_link_invalid|expired or was already used/);
        const { page } = await signUp(email);
        assert.equal(page.statusCode, 202);
        const fresh = linkIn((await waitForMail(email, 1)).raw, '/signup/confirm');
        assert.equal((await confirm(fresh)).statusCode, 201);
      } finally {
        t.clock.set('2026-03-10T12:00:00Z');
      }
    });

    it("a squatter signing up with someone else's address reserves nothing: the owner signs up and confirms", async () => {
      const victim = newEmail('owner');
      // The squatter cannot read the owner's mail: the link goes to the owner's mailbox.
      const squatter = await signUp(victim, '192.0.2.66');
      assert.equal(squatter.page.statusCode, 202);
      assert.equal(await t.app.ctx.accounts.findSummary(victim), undefined);
      const squatterBrowserLink = new DashboardBrowser(t.app);
      const noKey = await squatterBrowserLink.signIn(victim, 'di_live_guess');
      assert.equal(noKey.statusCode, 401, 'no account exists to sign in to');

      const owner = await signUp(victim);
      assert.equal(owner.page.statusCode, 202, 'the owner is never told the address is taken');
      const first = linkIn((await waitForMail(victim, 0)).raw, '/signup/confirm');
      const second = linkIn((await waitForMail(victim, 1)).raw, '/signup/confirm');
      const shown = await confirm(second);
      assert.equal(shown.statusCode, 201);
      assert.equal((await t.app.ctx.accounts.summary(victim)).plan, 'free');
      const older = await confirm(first);
      assert.equal(older.statusCode, 400, 'the account exists: the other links of the address stop working');
    });

    it('answers a sign-up for an address with an account the same way, and mails its owner instead', async () => {
      const email = newEmail('existing');
      await t.keyFor('starter', email);
      const json = await t.app.inject({
        method: 'POST',
        url: '/signup',
        payload: { email },
        remoteAddress: newClient(),
      });
      assert.equal(json.statusCode, 202, 'not 409: the answer does not tell who has an account');
      assert.equal(json.json().data.status, 'confirmation_sent');
      const mail = await waitForMail(email);
      assert.match(headerOf(mail.raw, 'Subject') ?? '', /already have a Domain Intelligence API account/);
      assert.match(mailText(mail.raw), new RegExp(`${PUBLIC_URL}/dashboard`));
      assert.doesNotMatch(mailText(mail.raw), /signup\/confirm/);
      assert.equal((await t.app.ctx.accounts.summary(email)).plan, 'starter', 'the account is untouched');
    });

    it('mails one address at most 3 times an hour; the links already sent keep working', async () => {
      const email = newEmail('flooded');
      for (let i = 0; i < 3; i++) assert.equal((await signUp(email, `192.0.2.${100 + i}`)).page.statusCode, 202);
      const fourth = await signUp(email);
      assert.equal(fourth.page.statusCode, 429);
      assert.match(fourth.page.headers['content-type'] as string, /text\/html/);
      assert.match(fourth.page.body, /already mailed this e-mail address 3 times/);
      assert.ok(Number(fourth.page.headers['retry-after']) > 0);
      await waitForMail(email, 2);
      assert.equal(smtp.received.filter((entry) => entry.to.includes(email)).length, 3);
      const last = linkIn((await waitForMail(email, 2)).raw, '/signup/confirm');
      assert.equal((await confirm(last)).statusCode, 201, 'the owner is not locked out');
    });

    it('a mail that cannot be sent answers 503 mail_unavailable, creates nothing and counts nothing', async () => {
      const client = newClient();
      const failed = await t.app.inject({
        method: 'POST',
        url: '/signup',
        payload: { email: `bounce-${Date.now()}@example.com` },
        remoteAddress: client,
      });
      assert.equal(failed.statusCode, 503);
      assert.equal(failed.json().error.code, 'mail_unavailable');
      assert.ok(Number(failed.headers['retry-after']) > 0);
      const next = await t.app.inject({
        method: 'POST',
        url: '/signup',
        payload: { email: newEmail('after-bounce') },
        remoteAddress: client,
      });
      assert.equal(next.statusCode, 202);
      assert.equal(next.headers['x-ratelimit-remaining'], '49', 'the failed sign-up gave its unit back');
    });

    it("puts PUBLIC_URL in the link whatever Host the request names (a forged Host cannot steer the owner's link)", async () => {
      const email = newEmail('host');
      const started = await t.app.inject({
        method: 'POST',
        url: '/signup',
        payload: { email },
        headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
        remoteAddress: newClient(),
      });
      assert.equal(started.statusCode, 202);
      const { mail, link } = await confirmationMailTo(email);
      assert.equal(link.origin, PUBLIC_URL);
      assert.doesNotMatch(mailText(mail.raw), /evil\.example/);
    });

    it('refuses a confirmation form without its CSRF token', async () => {
      const email = newEmail('csrf');
      await signUp(email);
      const { link } = await confirmationMailTo(email);
      const forged = await t.app.inject({
        method: 'POST',
        url: '/signup/confirm',
        payload: `token=${link.searchParams.get('token')}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(forged.statusCode, 403);
      assert.equal((await confirm(link)).statusCode, 201, 'the link still works');
    });
  });
}

describe('sign-up confirmation in the embedded mode (mail written to DATA_DIR/outbox)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]!, env: { PUBLIC_URL } });
  });
  after(async () => t?.close());

  it('writes the confirmation mail as an .eml file and says where mail goes', async () => {
    assert.equal(t.app.ctx.mailer?.transport, 'outbox');
    const email = newEmail('outbox');
    const browser = new DashboardBrowser(t.app);
    await browser.get('/signup');
    const page = await browser.post('/signup', { email });
    assert.equal(page.statusCode, 202);
    assert.match(page.body, /outbox/);
    const outbox = path.join(t.config.DATA_DIR, 'outbox');
    const files = (await readdir(outbox)).filter((file) => file.endsWith('.eml'));
    assert.equal(files.length, 1);
    const raw = await readFile(path.join(outbox, files[0]!), 'utf8');
    assert.equal(headerOf(raw, 'To'), email);
    const link = linkIn(raw, '/signup/confirm');
    const confirmPage = await browser.get(link.pathname + link.search);
    assert.equal(confirmPage.statusCode, 200);
    const shown = await browser.post('/signup/confirm', { token: link.searchParams.get('token') ?? '' });
    assert.equal(shown.statusCode, 201);
    assert.match(shown.body, /di_live_/);
  });
});
