import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { DashboardBrowser, embeddedJson, testId } from './dashboard-session.ts';
import { bearer, createTestApp, quotaStoreVariants, type TestApp } from './helpers.ts';

let counter = 0;
const uniqueEmail = () => `dash${++counter}-${Date.now()}@example.com`;

interface Usage {
  days: string[];
  used: number[];
  limit: number | null;
}

for (const variant of quotaStoreVariants(databaseTargets())) {
  describe(`dashboard: sign-in, keys and usage (${variant.name})`, { skip: variant.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({
        target: variant.target,
        redis: variant.redis,
        env: { DASHBOARD_SIGNIN_RATE_PER_15_MIN: '1000', TRUST_PROXY: '127.0.0.1' },
      });
    });
    after(async () => t?.close());

    async function signedIn(plan: 'free' | 'starter' | 'enterprise' = 'starter') {
      const email = uniqueEmail();
      const key = await t.keyFor(plan, email);
      const browser = new DashboardBrowser(t.app);
      const response = await browser.signIn(email, key);
      assert.equal(response.statusCode, 303, response.body);
      return { browser, email, key };
    }

    it('shows the sign-in form with a CSRF token, and refuses a form without one', async () => {
      const browser = new DashboardBrowser(t.app);
      const page = await browser.get('/dashboard');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Sign in with the e-mail address/);
      assert.equal(page.headers['cache-control'], 'no-store');
      const csrfCookie = page.cookies.find((cookie) => cookie.name === 'di_dashboard_csrf');
      assert.ok(csrfCookie?.httpOnly);
      const email = uniqueEmail();
      const key = await t.keyFor('free', email);
      const forged = await browser.post('/dashboard/sign-in', { _csrf: 'forged', email, key });
      assert.equal(forged.statusCode, 403);
      assert.match(forged.body, /invalid_csrf_token/);
      const stranger = new DashboardBrowser(t.app);
      const noCookie = await stranger.post('/dashboard/sign-in', { email, key });
      assert.equal(noCookie.statusCode, 403, 'a token is useless without the cookie it belongs to');
    });

    it('signs in with e-mail and key and sets a HttpOnly, SameSite=Lax session cookie (Secure behind https)', async () => {
      const email = uniqueEmail();
      const key = await t.keyFor('starter', email);
      const browser = new DashboardBrowser(t.app);
      const response = await browser.signIn(email.toUpperCase(), key);
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, '/dashboard');
      const session = response.cookies.find((cookie) => cookie.name === 'di_dashboard');
      assert.ok(session);
      assert.equal(session.httpOnly, true);
      assert.equal(session.sameSite, 'Lax');
      assert.equal(session.path, '/dashboard');
      assert.equal(session.secure, undefined, 'plain http: no Secure flag');

      const behindProxy = new DashboardBrowser(t.app, { 'x-forwarded-proto': 'https' });
      const secure = await behindProxy.signIn(email, key);
      assert.equal(secure.cookies.find((cookie) => cookie.name === 'di_dashboard')?.secure, true);

      const overview = await browser.get('/dashboard');
      assert.equal(overview.statusCode, 200);
      assert.match(overview.body, new RegExp(email));
      assert.match(overview.body, /Starter/);
      // Each date in an element of its own, which the stylesheet never breaks across lines.
      assert.match(
        overview.body,
        /Billing period <time class="date" datetime="2026-03-10T12:00:00.000Z">2026-03-10<\/time> – <time class="date" datetime="2026-04-10T12:00:00.000Z">2026-04-10<\/time>/,
      );
    });

    it('refuses a wrong key, another account’s key and a revoked key with one message', async () => {
      const email = uniqueEmail();
      const key = await t.keyFor('free', email);
      const otherKey = await t.keyFor('free');
      const revoked = await t.app.ctx.accounts.createKey(email, 'old');
      await t.app.ctx.accounts.revokeKey(email, revoked.key_id);
      const refusals = [];
      // One character changed, never to itself (`…xx` was the key itself when it ended in xx: one run in ~3,400).
      const wrongKey = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
      for (const attempt of [wrongKey, otherKey, revoked.key, 'not-a-key']) {
        const response = await new DashboardBrowser(t.app).signIn(email, attempt);
        refusals.push([response.statusCode, /do not belong to one active account/.test(response.body)]);
      }
      const unknownEmail = await new DashboardBrowser(t.app).signIn(uniqueEmail(), key);
      refusals.push([unknownEmail.statusCode, /do not belong to one active account/.test(unknownEmail.body)]);
      assert.deepEqual(refusals, Array(5).fill([401, true]));

      const badEmail = await new DashboardBrowser(t.app).signIn('not an email', key);
      assert.equal(badEmail.statusCode, 400);
      assert.match(badEmail.body, /is not a valid e-mail address/);
      assert.match(badEmail.body, /value="not an email"/, 'the form keeps what was typed');
    });

    it('shows today’s usage and a 30-day chart that rise with API calls, and never counts itself', async () => {
      const { browser, key } = await signedIn('free');
      t.clock.set('2026-03-08T09:00:00Z');
      for (let i = 0; i < 2; i++) await t.app.inject({ url: '/v1/domains?limit=1', headers: bearer(key) });
      t.clock.set('2026-03-10T12:00:00Z');
      for (let i = 0; i < 3; i++) await t.app.inject({ url: '/v1/domains?limit=1', headers: bearer(key) });

      const page = await browser.get('/dashboard');
      assert.equal(testId(page.body, 'used-today'), '3');
      assert.match(page.body, /of 100 calls/);
      const usage = embeddedJson<Usage>(page.body, 'usage-data');
      assert.equal(usage.days.length, 30);
      assert.equal(usage.days.at(-1), '2026-03-10');
      assert.equal(usage.used.at(-1), 3);
      assert.equal(usage.used.at(-3), 2);
      assert.equal(
        usage.used.reduce((sum, used) => sum + used, 0),
        5,
      );
      assert.equal(usage.limit, 100);

      await browser.get('/dashboard/feed');
      await browser.get('/dashboard/feed.csv');
      await browser.get('/dashboard');
      const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      assert.equal(quota.json().data.used, 3, 'dashboard pages take no quota');
    });

    it('creates a key shown once, rotates one (old key refused) and revokes one', async () => {
      const { browser, key, email } = await signedIn();
      const created = await browser.post('/dashboard/keys', { name: 'production' });
      assert.equal(created.statusCode, 201);
      assert.equal(created.headers['cache-control'], 'no-store');
      const newKey = testId(created.body, 'new-key')!;
      assert.match(newKey, /^di_live_/);
      assert.equal((await t.app.inject({ url: '/v1/quota', headers: bearer(newKey) })).statusCode, 200);
      const later = await browser.get('/dashboard');
      assert.ok(!later.body.includes(newKey), 'the key is never shown again');
      assert.match(later.body, /production/);

      const keys = await t.app.ctx.accounts.listKeys(email);
      const original = keys.find((entry) => entry.name === 'default')!;
      const rotated = await browser.post(`/dashboard/keys/${original.key_id}/rotate`);
      assert.equal(rotated.statusCode, 200);
      const replacement = testId(rotated.body, 'new-key')!;
      assert.notEqual(replacement, key);
      const old = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      assert.equal(old.statusCode, 401);
      assert.equal(old.json().error.code, 'key_revoked');
      assert.equal((await t.app.inject({ url: '/v1/quota', headers: bearer(replacement) })).statusCode, 200);

      const production = (await t.app.ctx.accounts.listKeys(email)).find((entry) => entry.name === 'production')!;
      const revoked = await browser.post(`/dashboard/keys/${production.key_id}/revoke`);
      assert.equal(revoked.statusCode, 303);
      assert.equal(revoked.headers.location, '/dashboard?done=revoked');
      assert.equal((await t.app.inject({ url: '/v1/quota', headers: bearer(newKey) })).statusCode, 401);
      const again = await browser.post(`/dashboard/keys/${production.key_id}/revoke`);
      assert.equal(again.statusCode, 409);
      assert.match(again.body, /already revoked/);
    });

    it('never touches another account’s key, and refuses key actions without a session', async () => {
      const { browser } = await signedIn();
      const otherEmail = uniqueEmail();
      await t.keyFor('free', otherEmail);
      const [otherKey] = await t.app.ctx.accounts.listKeys(otherEmail);
      const response = await browser.post(`/dashboard/keys/${otherKey!.key_id}/rotate`);
      assert.equal(response.statusCode, 404);
      assert.match(response.body, /key_not_found/);
      assert.equal((await t.app.ctx.accounts.listKeys(otherEmail))[0]!.revoked_at, null);

      const anonymous = new DashboardBrowser(t.app);
      await anonymous.get('/dashboard');
      const refused = await anonymous.post('/dashboard/keys', { name: 'sneaky' });
      assert.equal(refused.statusCode, 401);
      assert.match(refused.body, /Sign in again/);
    });

    it('rejects a key name that is too long', async () => {
      const { browser } = await signedIn();
      const response = await browser.post('/dashboard/keys', { name: 'x'.repeat(65) });
      assert.equal(response.statusCode, 400);
      assert.match(response.body, /invalid_key_name/);
    });

    it('ends the session on sign-out and after its lifetime', async () => {
      const { browser } = await signedIn();
      const stolenCookie = browser.cookies.get('di_dashboard')!;
      const out = await browser.post('/dashboard/sign-out');
      assert.equal(out.statusCode, 303);
      const replay = new DashboardBrowser(t.app);
      replay.cookies.set('di_dashboard', stolenCookie);
      assert.match((await replay.get('/dashboard')).body, /Sign in with the e-mail address/);

      const { browser: second } = await signedIn();
      t.clock.advance(12 * 3_600_000);
      try {
        assert.match((await second.get('/dashboard')).body, /Sign in with the e-mail address/);
      } finally {
        t.clock.set('2026-03-10T12:00:00Z');
      }
    });
  });
}

describe('dashboard sign-in rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]!, env: { DASHBOARD_SIGNIN_RATE_PER_15_MIN: '3' } });
  });
  after(async () => t?.close());

  it('refuses the fourth attempt from one address within 15 minutes with 429 and Retry-After', async () => {
    const browser = new DashboardBrowser(t.app);
    await browser.get('/dashboard');
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await browser.post('/dashboard/sign-in', { email: 'a@example.com', key: 'di_live_x' })).statusCode,
      );
    }
    assert.deepEqual(statuses, [401, 401, 401, 429]);
    const limited = await browser.post('/dashboard/sign-in', { email: 'a@example.com', key: 'di_live_x' });
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.match(limited.body, /Too many sign-in attempts/);
  });
});
