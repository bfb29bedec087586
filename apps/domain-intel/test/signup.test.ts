import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { DashboardBrowser } from './dashboard-session.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

let clientCounter = 0;
/** Each test signs up from a client address of its own, so the per-address limits of one do not touch another. */
const newClient = () => `198.51.100.${++clientCounter}`;

const json = (payload: object | string, remoteAddress: string) => ({
  method: 'POST' as const,
  url: '/signup',
  payload,
  headers: { 'content-type': 'application/json' },
  remoteAddress,
});

/** The sign-up form as a person's browser submits it: the page first (CSRF cookie and token), then the form. */
async function submitForm(t: TestApp, email: string, client = newClient()) {
  const browser = new DashboardBrowser(t.app, {}, client);
  const page = await browser.get('/signup');
  assert.equal(page.statusCode, 200);
  return browser.post('/signup', { email });
}

// Without account mail (SIGNUP_CONFIRMATION=off here; also where no mail can be sent) the key is
// shown at once. The confirmation flow is in signup-confirmation.test.ts.
for (const target of databaseTargets()) {
  describe(`sign-up without confirmation (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target, env: { SIGNUP_CONFIRMATION: 'off', SIGNUP_RATE_PER_HOUR: '3' } });
    });
    after(async () => t?.close());

    it('shows a form with a labelled e-mail field and a CSRF token', async () => {
      const page = await t.app.inject('/signup');
      assert.equal(page.statusCode, 200);
      assert.match(page.headers['content-type'] as string, /text\/html/);
      assert.match(page.body, /<label for="email">/);
      assert.match(page.body, /<form method="post" action="\/signup"/);
      assert.match(page.body, /name="_csrf" value="[^"]+"/);
      assert.match(String(page.headers['set-cookie']), /di_signup_csrf=.*Path=\/signup.*HttpOnly.*SameSite=Lax/i);
    });

    it('creates a Free account from the form and shows the working key once', async () => {
      const page = await submitForm(t, 'Newcomer@Example.com');
      assert.equal(page.statusCode, 201);
      const key = /di_live_[1-9A-HJ-NP-Za-km-z]+/.exec(page.body)?.[0];
      assert.ok(key, 'the key is on the page');
      assert.equal(page.headers['cache-control'], 'no-store');
      const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      assert.equal(quota.json().data.plan, 'free');
    });

    it('answers JSON to JSON clients (no CSRF token needed), with clear errors', async () => {
      const client = newClient();
      const created = await t.app.inject(json({ email: 'json@example.com' }, client));
      assert.equal(created.statusCode, 201);
      assert.equal(created.json().data.plan, 'free');
      assert.match(created.json().data.key, /^di_live_/);

      const again = await t.app.inject(json({ email: 'JSON@example.com' }, client));
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().error.code, 'email_taken');

      const invalid = await t.app.inject(json({ email: 'not an address' }, client));
      assert.equal(invalid.statusCode, 400);
      assert.equal(invalid.json().error.code, 'invalid_email');

      const missing = await t.app.inject(json({}, client));
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().error.code, 'invalid_email');
      assert.match(missing.json().error.message, /required/);

      const broken = await t.app.inject(json('{"email":', client));
      assert.equal(broken.statusCode, 400);
      assert.equal(broken.json().error.code, 'invalid_body');
    });

    it('shows form errors on the form, keeping what was typed, and escapes what it echoes', async () => {
      const page = await submitForm(t, 'oops@');
      assert.equal(page.statusCode, 400);
      assert.match(page.body, /role="alert"/);
      assert.match(page.body, /value="oops@"/);
      assert.match(page.body, /name="_csrf" value="[^"]+"/, 'the form can be sent again');
      const hostile = await submitForm(t, '<script>alert(1)</script>');
      assert.equal(hostile.statusCode, 400);
      assert.ok(!hostile.body.includes('<script>alert(1)</script>'));
    });

    it('refuses a form without its CSRF token, with a forged one, or from another site (403 page, nothing created)', async () => {
      const email = `csrf-${Date.now()}@example.com`;
      const client = newClient();
      const noToken = await t.app.inject({
        method: 'POST',
        url: '/signup',
        payload: `email=${encodeURIComponent(email)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress: client,
      });
      assert.equal(noToken.statusCode, 403);
      assert.match(noToken.headers['content-type'] as string, /text\/html/);
      assert.match(noToken.body, /expired or was not sent from this site/);

      const browser = new DashboardBrowser(t.app, {}, client);
      await browser.get('/signup');
      const forged = await browser.post('/signup', { email, _csrf: 'forged-token' });
      assert.equal(forged.statusCode, 403);

      // A cross-site page can post the form but has neither the cookie nor a token made from it.
      const crossSite = await t.app.inject({
        method: 'POST',
        url: '/signup',
        payload: `email=${encodeURIComponent(email)}&_csrf=${encodeURIComponent(browser.csrfToken ?? '')}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        remoteAddress: client,
      });
      assert.equal(crossSite.statusCode, 403);
      // text/plain is what a cross-site form can send as "JSON": it needs the token too.
      const plain = await t.app.inject({
        method: 'POST',
        url: '/signup',
        payload: JSON.stringify({ email }),
        headers: { 'content-type': 'text/plain' },
        remoteAddress: client,
      });
      assert.equal(plain.statusCode, 403);
      assert.equal(await t.app.ctx.accounts.findSummary(email), undefined);
    });

    it('counts only the sign-ups that went through: typos do not lock a person out', async () => {
      const client = newClient();
      const browser = new DashboardBrowser(t.app, {}, client);
      await browser.get('/signup');
      for (const typo of ['ann@', 'ann@example', 'ann example.com', 'ann@@example.com', 'ann@exa mple.com', 'x']) {
        assert.equal((await browser.post('/signup', { email: typo })).statusCode, 400, typo);
      }
      const created = await browser.post('/signup', { email: `ann-${Date.now()}@example.com` });
      assert.equal(created.statusCode, 201, 'six typos later, the sign-up goes through');
      assert.equal(created.headers['x-ratelimit-limit'], '3');
      assert.equal(created.headers['x-ratelimit-remaining'], '2');
      const taken = await t.app.inject(json({ email: 'json@example.com' }, client));
      assert.equal(taken.statusCode, 409, 'an address that has an account does not count either');
    });

    it('at the limit answers the form with an HTML page (429, Retry-After), JSON clients with the envelope', async () => {
      const client = newClient();
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await submitForm(t, `burst${i}-${Date.now()}@example.com`, client)).statusCode);
      }
      assert.deepEqual(statuses, [201, 201, 201]);
      const refused = await submitForm(t, `burst9-${Date.now()}@example.com`, client);
      assert.equal(refused.statusCode, 429);
      assert.match(refused.headers['content-type'] as string, /text\/html/);
      assert.match(refused.body, /role="alert"/);
      assert.match(refused.body, /3 sign-ups in the last hour/);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      assert.ok(Number(refused.headers['x-ratelimit-reset']) > Date.now() / 1000);

      const refusedJson = await t.app.inject(json({ email: `burst10-${Date.now()}@example.com` }, client));
      assert.equal(refusedJson.statusCode, 429);
      assert.equal(refusedJson.json().error.code, 'rate_limited');
      assert.ok(Number(refusedJson.headers['retry-after']) > 0);
      assert.equal((await submitForm(t, `elsewhere-${Date.now()}@example.com`)).statusCode, 201, 'another address');
    });
  });
}
