import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashSecret } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

const quota = (t: TestApp, key: string) => t.app.inject({ url: '/v1/quota', headers: bearer(key) });

for (const target of databaseTargets()) {
  describe(`accounts, keys and subscriptions (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target });
    });
    after(async () => t?.close());

    it('issues di_live_ keys of 32 random bytes and stores only their SHA-256', async () => {
      const { key } = await t.app.ctx.accounts.signUp({ email: 'Hash@Example.com' });
      assert.match(key.key, /^di_live_[1-9A-HJ-NP-Za-km-z]{43,44}$/);
      const rows = await t.app.ctx.database.db.selectFrom('api_keys').selectAll().execute();
      const row = rows.find((candidate) => candidate.id === key.key_id)!;
      assert.equal(row.key_hash, hashSecret(key.key));
      const stored = JSON.stringify(rows);
      assert.ok(!stored.includes(key.key), 'the key itself is never stored');
      assert.equal(row.prefix, key.key.slice(0, 12));
    });

    it('normalises e-mail addresses and refuses a second account for one', async () => {
      await t.app.ctx.accounts.signUp({ email: 'Twice@Example.com' });
      await assert.rejects(t.app.ctx.accounts.signUp({ email: ' twice@example.COM ' }), { code: 'email_taken' });
      for (const email of [
        '',
        'no-at-sign',
        'a@b',
        'two@@example.com',
        `${'x'.repeat(250)}@example.com`,
        'a b@example.com',
      ]) {
        await assert.rejects(t.app.ctx.accounts.signUp({ email }), { code: 'invalid_email' }, email);
      }
    });

    it('lists keys by prefix and last use, rotates and revokes them', async () => {
      const { key, account } = await t.app.ctx.accounts.signUp({ email: 'keys@example.com', plan: 'starter' });
      assert.equal((await quota(t, key.key)).statusCode, 200);
      t.clock.advance(120_000);
      const second = await t.app.ctx.accounts.createKey(account.email, 'ci');
      const listed = await t.app.ctx.accounts.listKeys(account.email);
      assert.deepEqual(
        listed.map((entry) => entry.name),
        ['default', 'ci'],
      );
      assert.ok(listed[0]!.last_used_at, 'last use is recorded');
      assert.ok(!JSON.stringify(listed).includes(key.key));

      const rotated = await t.app.ctx.accounts.rotateKey(account.email, key.key_id);
      const old = await quota(t, key.key);
      assert.equal(old.statusCode, 401);
      assert.equal(old.json().error.code, 'key_revoked');
      assert.equal((await quota(t, rotated.key)).statusCode, 200);

      await t.app.ctx.accounts.revokeKey(account.email, second.key_id);
      assert.equal((await quota(t, second.key)).json().error.code, 'key_revoked');
      await assert.rejects(t.app.ctx.accounts.revokeKey(account.email, second.key_id), { code: 'key_already_revoked' });
      await assert.rejects(t.app.ctx.accounts.revokeKey('nobody@example.com', second.key_id), {
        code: 'account_not_found',
      });
      const other = await t.app.ctx.accounts.signUp({ email: 'other@example.com' });
      await assert.rejects(t.app.ctx.accounts.revokeKey(other.account.email, rotated.key_id), {
        code: 'key_not_found',
      });
    });

    it('keeps a cancelled paid plan working until the end of its billing period, then answers key_revoked', async () => {
      t.clock.set('2026-01-31T10:00:00Z');
      const { key, account } = await t.app.ctx.accounts.signUp({ email: 'cancel@example.com', plan: 'starter' });
      assert.equal(account.subscription.periodEnd, Date.parse('2026-02-28T10:00:00Z'), 'month end is clamped');
      t.clock.set('2026-02-10T00:00:00Z');
      const cancelled = await t.app.ctx.accounts.cancelSubscription(account.email);
      assert.equal(cancelled.subscription.status, 'cancelled');
      await assert.rejects(t.app.ctx.accounts.cancelSubscription(account.email), { code: 'already_cancelled' });
      t.clock.set('2026-02-28T09:59:59Z');
      assert.equal((await quota(t, key.key)).statusCode, 200);
      t.clock.set('2026-02-28T10:00:00Z');
      const ended = await quota(t, key.key);
      assert.equal(ended.statusCode, 401);
      assert.equal(ended.json().error.code, 'key_revoked');
      assert.match(String(ended.headers['www-authenticate']), /^Bearer /);
      t.clock.set('2026-03-10T12:00:00Z');
    });

    it('renews an uncancelled paid plan period after period', async () => {
      t.clock.set('2026-01-15T00:00:00Z');
      const { key, account } = await t.app.ctx.accounts.signUp({ email: 'renew@example.com', plan: 'enterprise' });
      t.clock.set('2026-05-20T00:00:00Z');
      const response = await quota(t, key.key);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().data.period_end, '2026-06-15T00:00:00.000Z');
      const summary = await t.app.ctx.accounts.summary(account.email);
      assert.equal(summary.subscription.periodStart, Date.parse('2026-05-15T00:00:00Z'));
      t.clock.set('2026-03-10T12:00:00Z');
    });

    it('never expires the Free plan, which has nothing to cancel', async () => {
      const { key, account } = await t.app.ctx.accounts.signUp({ email: 'free@example.com' });
      await assert.rejects(t.app.ctx.accounts.cancelSubscription(account.email), { code: 'nothing_to_cancel' });
      t.clock.advance(10 * 365 * 86_400_000);
      const response = await quota(t, key.key);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().data.period_end, null);
      t.clock.set('2026-03-10T12:00:00Z');
    });

    it('upgrades and downgrades at once, clearing a pending cancellation', async () => {
      const { key, account } = await t.app.ctx.accounts.signUp({ email: 'upgrade@example.com' });
      await t.app.ctx.accounts.setPlan(account.email, 'starter');
      assert.equal((await quota(t, key.key)).json().data.limit, 1000);
      await t.app.ctx.accounts.cancelSubscription(account.email);
      const upgraded = await t.app.ctx.accounts.setPlan(account.email, 'enterprise');
      assert.equal(upgraded.subscription.status, 'active');
      assert.equal((await quota(t, key.key)).json().data.limit, null);
      await t.app.ctx.accounts.setPlan(account.email, 'free');
      assert.equal((await quota(t, key.key)).json().data.limit, 100);
      await assert.rejects(t.app.ctx.accounts.setPlan(account.email, 'platinum'), { code: 'invalid_plan' });
    });
  });
}
