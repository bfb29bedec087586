import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, testTimeout } from '@repo/server-kit/testing';
import { DashboardBrowser } from './dashboard-session.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { headerOf, linkIn, startSmtpServer, type TestSmtpServer } from './smtp-helpers.ts';

/** Collects the app's log lines so the test can read the printed link like an operator would. */
function logCollector() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const links = () => lines.flatMap((line) => (typeof line.link === 'string' ? [line.link] : []));
  return { stream, links };
}

for (const target of databaseTargets()) {
  describe(`dashboard sign-in links (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let log: ReturnType<typeof logCollector>;
    before(async () => {
      log = logCollector();
      // For an operator without mail: the links are printed to the log.
      t = await createTestApp({ target, env: { DASHBOARD_SIGN_IN_LINKS: 'log' }, logStream: log.stream });
    });
    after(async () => t?.close());

    const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;

    it('prints a one-time link for a known address only, with the same answer for both', async () => {
      const email = `link-${Date.now()}@example.com`;
      await t.keyFor('starter', email);
      const browser = new DashboardBrowser(t.app);
      await browser.get('/dashboard');
      const known = await browser.post('/dashboard/sign-in-link', { email });
      const unknown = await browser.post('/dashboard/sign-in-link', { email: 'nobody@example.com' });
      assert.equal(known.statusCode, 200);
      assert.equal(unknown.statusCode, 200);
      assert.match(known.body, /a sign-in link valid for 15 minutes is now in the server log/);
      assert.match(unknown.body, /a sign-in link valid for 15 minutes is now in the server log/);
      assert.equal(log.links().length, 1);

      const link = log.links()[0]!;
      assert.match(link, /\/dashboard\/sign-in-link\?token=[\w-]{43}$/);
      const confirm = await browser.get(pathOf(link));
      assert.equal(confirm.statusCode, 200, 'opening the link does not sign in by itself');
      assert.match(confirm.body, /This link signs you in once/);
      const token = new URL(link).searchParams.get('token')!;
      const signedIn = await browser.post('/dashboard/sign-in-link/confirm', { token });
      assert.equal(signedIn.statusCode, 303);
      assert.match((await browser.get('/dashboard')).body, new RegExp(email));

      const again = await new DashboardBrowser(t.app).get(pathOf(link));
      assert.equal(again.statusCode, 400);
      assert.match(again.body, /expired or was already used/);
      const replay = await browser.post('/dashboard/sign-in-link/confirm', { token });
      assert.equal(replay.statusCode, 400);
    });

    it('expires after 15 minutes', async () => {
      const email = `late-${Date.now()}@example.com`;
      await t.keyFor('free', email);
      const browser = new DashboardBrowser(t.app);
      await browser.get('/dashboard');
      await browser.post('/dashboard/sign-in-link', { email });
      const token = new URL(log.links().at(-1)!).searchParams.get('token')!;
      t.clock.advance(15 * 60_000);
      try {
        const late = await browser.post('/dashboard/sign-in-link/confirm', { token });
        assert.equal(late.statusCode, 400);
        assert.match(late.body, /sign_in_link_invalid/);
      } finally {
        t.clock.set('2026-03-10T12:00:00Z');
      }
    });
  });
}

for (const target of databaseTargets()) {
  describe(`dashboard sign-in links by e-mail (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    before(async () => {
      smtp = await startSmtpServer();
      t = await createTestApp({ target, env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://di.example.test' } });
    });
    after(async () => {
      await t?.close();
      await smtp?.close();
    });

    it('mails a one-time link to a known address only, answering both the same; the link signs in once', async () => {
      const email = `mailed-link-${Date.now()}@example.com`;
      await t.keyFor('starter', email);
      const browser = new DashboardBrowser(t.app);
      const page = await browser.get('/dashboard');
      assert.match(page.body, /We mail a link to the address of your account/);
      const known = await browser.post('/dashboard/sign-in-link', { email });
      const unknown = await browser.post('/dashboard/sign-in-link', { email: 'nobody@example.com' });
      assert.equal(known.statusCode, 200);
      assert.equal(unknown.statusCode, 200);
      const notice = /a sign-in link valid for 15 minutes is on its way by e-mail/;
      assert.match(known.body, notice);
      assert.match(unknown.body, notice);

      const mail = await smtp.nextMail();
      assert.deepEqual(mail.to, [email]);
      assert.match(headerOf(mail.raw, 'Subject') ?? '', /sign-in link/);
      const link = linkIn(mail.raw, '/dashboard/sign-in-link');
      assert.equal(link.origin, 'https://di.example.test');
      const confirm = await browser.get(link.pathname + link.search);
      assert.equal(confirm.statusCode, 200, 'opening the link (as a mail scanner would) does not sign in');
      const token = link.searchParams.get('token')!;
      assert.equal((await browser.post('/dashboard/sign-in-link/confirm', { token })).statusCode, 303);
      assert.match((await browser.get('/dashboard')).body, new RegExp(email));
      assert.equal((await browser.post('/dashboard/sign-in-link/confirm', { token })).statusCode, 400);
      await new Promise((resolve) => setTimeout(resolve, testTimeout(100)));
      assert.equal(smtp.received.filter((entry) => entry.to.includes('nobody@example.com')).length, 0);
    });
  });
}

describe('dashboard sign-in links switched off', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]!, env: { DASHBOARD_SIGN_IN_LINKS: 'off' } });
  });
  after(async () => t?.close());

  it('offers no link form and has no link routes', async () => {
    const browser = new DashboardBrowser(t.app);
    const page = await browser.get('/dashboard');
    assert.ok(!page.body.includes('sign-in-link'));
    assert.equal((await browser.post('/dashboard/sign-in-link', { email: 'a@example.com' })).statusCode, 404);
  });
});
