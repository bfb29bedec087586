import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { SignInLinks } from '../src/dashboard/sign-in-links.ts';
import { DashboardBrowser } from './dashboard-session.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let counter = 0;

for (const target of databaseTargets()) {
  describe(`dashboard sessions end with their key (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({
        target,
        env: { DASHBOARD_SIGNIN_RATE_PER_15_MIN: '1000', DASHBOARD_SIGN_IN_LINKS: 'log' },
      });
    });
    after(async () => t?.close());

    /** An account with two keys; returns them with their ids. */
    async function account() {
      const email = `sessions${++counter}-${Date.now()}@example.com`;
      const first = await t.app.ctx.accounts.signUp({ email, plan: 'starter' });
      const second = await t.app.ctx.accounts.createKey(email, 'laptop');
      return { email, accountId: first.account.account_id, keyA: first.key, keyB: second };
    }

    async function signedIn(email: string, key: string) {
      const browser = new DashboardBrowser(t.app);
      assert.equal((await browser.signIn(email, key)).statusCode, 303);
      assert.match((await browser.get('/dashboard')).body, /data-testid="used-today"/);
      return browser;
    }

    /** Whether the browser still has a session: the overview, or the sign-in form. */
    const isSignedIn = async (browser: DashboardBrowser) =>
      /data-testid="used-today"/.test((await browser.get('/dashboard')).body);

    it('a session opened with a leaked key ends when the owner rotates that key, and can no longer mint keys', async () => {
      const { email, keyA, keyB } = await account();
      const attacker = await signedIn(email, keyA.key);
      const owner = await signedIn(email, keyB.key);
      const keysBefore = (await t.app.ctx.accounts.listKeys(email)).length;

      const rotated = await owner.post(`/dashboard/keys/${keyA.key_id}/rotate`);
      assert.equal(rotated.statusCode, 200);
      assert.match(rotated.body, /data-testid="new-key"/);

      assert.equal(await isSignedIn(attacker), false, "the attacker's session ended");
      const minted = await attacker.post('/dashboard/keys', { name: 'mine now' });
      assert.equal(minted.statusCode, 401);
      assert.match(minted.body, /not_signed_in/);
      const rotateBack = await attacker.post(`/dashboard/keys/${keyB.key_id}/rotate`);
      assert.equal(rotateBack.statusCode, 401);
      assert.equal((await t.app.ctx.accounts.listKeys(email)).length, keysBefore + 1, 'only the rotation added a key');
      assert.equal(await isSignedIn(owner), true, "the owner's session (opened with another key) goes on");
    });

    it('ends the sessions of a key revoked anywhere (CLI, /account API), on the next request', async () => {
      const { email, keyA, keyB } = await account();
      const one = await signedIn(email, keyA.key);
      const two = await signedIn(email, keyA.key);
      const other = await signedIn(email, keyB.key);
      await t.app.ctx.accounts.revokeKey(email, keyA.key_id);
      assert.equal(await isSignedIn(one), false);
      assert.equal(await isSignedIn(two), false);
      assert.equal(await isSignedIn(other), true);
      const rows = await t.app.ctx.database.db
        .selectFrom('dashboard_sessions')
        .select('key_id')
        .where('key_id', '=', keyA.key_id)
        .execute();
      assert.deepEqual(rows, [], 'the ended sessions are deleted');
    });

    it('keeps the session that rotated its own key (it was shown the new one), ends the others of that key', async () => {
      const { email, keyA } = await account();
      const here = await signedIn(email, keyA.key);
      const elsewhere = await signedIn(email, keyA.key);
      const rotated = await here.post(`/dashboard/keys/${keyA.key_id}/rotate`);
      assert.equal(rotated.statusCode, 200);
      const newKey = /data-testid="new-key">([^<]+)</.exec(rotated.body)?.[1] as string;
      assert.equal(await isSignedIn(here), true);
      assert.equal(await isSignedIn(elsewhere), false);
      // The moved session now lives with the new key: revoking it ends the session.
      const newKeyId = (await t.app.ctx.accounts.listKeys(email)).find(
        (key) => key.name === 'default' && key.revoked_at === null,
      )?.key_id;
      assert.ok(newKey.startsWith('di_live_') && newKeyId);
      await t.app.ctx.accounts.revokeKey(email, newKeyId);
      assert.equal(await isSignedIn(here), false);
    });

    it('revoking the key of the session itself signs it out, saying why', async () => {
      const { email, keyA } = await account();
      const browser = await signedIn(email, keyA.key);
      const revoked = await browser.post(`/dashboard/keys/${keyA.key_id}/revoke`);
      assert.equal(revoked.statusCode, 303);
      assert.equal(revoked.headers.location, '/dashboard?done=revoked-own');
      const page = await browser.get('/dashboard?done=revoked-own');
      assert.match(page.body, /It was the key you signed in with/);
      assert.equal(await isSignedIn(browser), false);
    });

    it('"sign out everywhere" ends every session of the account (key and link sessions) and unused sign-in links', async () => {
      const { email, accountId, keyA, keyB } = await account();
      const stranger = await account();
      const strangers = await signedIn(stranger.email, stranger.keyA.key);
      const one = await signedIn(email, keyA.key);
      const two = await signedIn(email, keyB.key);
      const links = new SignInLinks(t.app.ctx.database.db, t.app.ctx.clock);
      const byLink = new DashboardBrowser(t.app);
      await byLink.get('/dashboard');
      // A sign-in link session is not tied to a key: rotating keys leaves it, signing out everywhere ends it.
      const linkToken = await links.create(accountId);
      const unusedLink = await links.create(accountId);
      assert.equal((await byLink.post('/dashboard/sign-in-link/confirm', { token: linkToken })).statusCode, 303);
      await one.post(`/dashboard/keys/${keyB.key_id}/rotate`);
      assert.equal(await isSignedIn(byLink), true);
      assert.equal(await isSignedIn(two), false);

      const overview = await one.get('/dashboard');
      assert.match(overview.body, /data-action="sign-out-everywhere"/);
      const everywhere = await one.post('/dashboard/sign-out-everywhere');
      assert.equal(everywhere.statusCode, 303);
      assert.equal(everywhere.headers.location, '/dashboard?done=signed-out-everywhere');
      assert.match((await one.get('/dashboard?done=signed-out-everywhere')).body, /signed out everywhere/);
      assert.equal(await isSignedIn(one), false);
      assert.equal(await isSignedIn(byLink), false);
      assert.equal(await links.isValid(unusedLink), false, 'a sign-in link not used yet stops working');
      assert.equal(await isSignedIn(strangers), true, "another account's sessions are untouched");
      // The key still works: sign-out ends sessions, not keys.
      assert.equal(await isSignedIn(await signedIn(email, keyA.key)), true);
    });

    it('refuses "sign out everywhere" without the form token or a session', async () => {
      const { email, keyA } = await account();
      const browser = await signedIn(email, keyA.key);
      const forged = await browser.post('/dashboard/sign-out-everywhere', { _csrf: 'forged' });
      assert.equal(forged.statusCode, 403);
      assert.equal(await isSignedIn(browser), true);
      const anonymous = new DashboardBrowser(t.app);
      await anonymous.get('/dashboard');
      assert.equal((await anonymous.post('/dashboard/sign-out-everywhere')).statusCode, 401);
    });
  });
}
