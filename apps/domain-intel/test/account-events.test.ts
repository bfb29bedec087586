import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WEBHOOK_EVENTS, type WebhookEventType } from '@repo/contracts/domain-intel';
import { databaseTargets, testTimeoutEnv } from '@repo/server-kit/testing';
import { Check } from 'typebox/value';
import type { PlanId } from '../src/accounts/plans.ts';
import { recordedEvents } from './event-helpers.ts';
import { feedRow } from './feed-helpers.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.ts';

const HOUR = 3_600_000;

/** A received body must be exactly what the contract (and so the OpenAPI document) promises. */
function assertMatchesContract(body: { type: string }) {
  const schema = WEBHOOK_EVENTS[body.type as WebhookEventType];
  assert.ok(schema, `${body.type} is a documented event`);
  assert.ok(Check(schema, body), `${body.type} matches its schema: ${JSON.stringify(body)}`);
}

for (const target of databaseTargets()) {
  describe(`account events as signed webhooks (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    let failing: WebhookReceiver;
    let counter = 0;

    before(async () => {
      receiver = await startReceiver();
      failing = await startReceiver();
      failing.answer('fail');
      t = await createTestApp({
        target,
        env: { RDAP_ALLOW_INSECURE: '1', DELIVERY_TIMEOUT_MS: testTimeoutEnv(2_000) },
      });
    });
    after(async () => {
      await t?.close();
      await receiver?.close();
      await failing?.close();
    });

    async function accountWithWebhook(plan: PlanId) {
      const email = `events-${++counter}-${target.name}@example.com`;
      const key = await t.keyFor(plan, email);
      const created = await t.app.inject({
        method: 'POST',
        url: '/account/targets',
        headers: bearer(key),
        payload: { kind: 'webhook', address: receiver.url },
      });
      assert.equal(created.statusCode, 201, created.body);
      receiver.setSecret(created.json().data.secret);
      const { account_id } = await t.app.ctx.accounts.summary(email);
      return { email, key, accountId: account_id as string };
    }
    /** Sends what is due; returns the bodies of `type` the receiver verified, checked against the contract. */
    async function delivered(type: WebhookEventType, match: (data: Record<string, unknown>) => boolean) {
      await t.app.ctx.delivery.sendDue();
      const bodies = receiver.received
        .map((entry) => entry.body)
        .filter((body) => body.type === type && match(body.data));
      for (const body of bodies) assertMatchesContract(body);
      return bodies.map((body) => body.data as Record<string, unknown>);
    }

    it('quota.warning at 80 % and quota.exhausted at 100 % of the daily limit, once each a day (Free, with an account webhook)', async () => {
      const { key, accountId } = await accountWithWebhook('free');
      for (let call = 1; call <= 101; call++) {
        const answer = await t.app.inject({ url: '/v1/domains?limit=1', headers: bearer(key) });
        assert.equal(answer.statusCode, call <= 100 ? 200 : 429, `call ${call}`);
      }
      const day = '2026-03-10';
      assert.deepEqual(await recordedEvents(t, accountId, 'quota.warning'), [
        { plan: 'free', limit: 100, used: 80, day },
      ]);
      assert.deepEqual(await recordedEvents(t, accountId, 'quota.exhausted'), [
        { plan: 'free', limit: 100, used: 100, day },
      ]);
      const mine = (data: Record<string, unknown>) => data.day === day && data.plan === 'free';
      assert.equal((await delivered('quota.warning', mine)).length, 1);
      assert.equal((await delivered('quota.exhausted', mine)).length, 1);
    });

    it('key.created and key.revoked, also for a rotation', async () => {
      const { email, accountId } = await accountWithWebhook('starter');
      const created = await t.app.ctx.accounts.createKey(email, 'ci');
      const rotated = await t.app.ctx.accounts.rotateKey(email, created.key_id);
      await t.app.ctx.accounts.revokeKey(email, rotated.key_id);
      // One clock instant: compare as sets.
      const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) =>
        String(a.key_id).localeCompare(String(b.key_id));
      const createdEvents = await recordedEvents(t, accountId, 'key.created', 3);
      assert.deepEqual(
        createdEvents
          .filter((data) => data.name === 'ci')
          .map((data) => data.key_id)
          .sort(),
        [created.key_id, rotated.key_id].sort(),
      );
      assert.deepEqual(
        (await recordedEvents(t, accountId, 'key.revoked', 2)).sort(byKey),
        [{ key_id: created.key_id, replaced_by: rotated.key_id }, { key_id: rotated.key_id }].sort(byKey),
      );
      const ours = new Set([created.key_id, rotated.key_id]);
      assert.equal((await delivered('key.created', (data) => ours.has(data.key_id as string))).length, 2);
      assert.equal((await delivered('key.revoked', (data) => ours.has(data.key_id as string))).length, 2);
    });

    it('subscription.ending when the paid plan is cancelled (the Stripe portal path: billing.test.ts)', async () => {
      const { email, accountId } = await accountWithWebhook('enterprise');
      const cancelled = await t.app.ctx.accounts.cancelSubscription(email);
      const endsAt = new Date(cancelled.subscription.periodEnd!).toISOString();
      assert.deepEqual(await recordedEvents(t, accountId, 'subscription.ending'), [
        { plan: 'enterprise', ends_at: endsAt },
      ]);
      assert.equal((await delivered('subscription.ending', (data) => data.ends_at === endsAt)).length, 1);
    });

    it('delivery.failed to the account webhooks when a filter batch is dead-lettered after 24 hours', async () => {
      const { key, accountId } = await accountWithWebhook('enterprise');
      const api = (url: string, payload: object) =>
        t.app.inject({ method: 'POST', url, headers: bearer(key), payload });
      const down = (await api('/account/targets', { kind: 'webhook', address: failing.url })).json().data;
      const filter = (
        await api('/account/filters', {
          name: 'never arrives',
          filter: 'contains=deadletter',
          target_ids: [down.target_id],
        })
      ).json().data;
      t.clock.advance(60_000);
      await t.app.ctx.database.db
        .insertInto('feed_domains')
        .values(feedRow('deadletter.com', { updated_at: t.clock.now() }))
        .execute();
      await t.app.ctx.delivery.run();
      for (let hours = 0; hours < 27; hours += 3) {
        t.clock.advance(3 * HOUR);
        await t.app.ctx.delivery.sendDue();
      }
      const [failed] = await recordedEvents(t, accountId, 'delivery.failed');
      assert.equal(failed?.filter_id, filter.filter_id);
      assert.equal(failed?.target_id, down.target_id);
      assert.match(String(failed?.last_error), /HTTP 500/);
      const heard = await delivered('delivery.failed', (data) => data.filter_id === filter.filter_id);
      assert.equal(heard.length, 1, 'the healthy webhook heard of it');
    });

    it('documents every event: the OpenAPI webhooks section, /docs/events and valid examples', async () => {
      const document = (await t.app.inject({ url: '/openapi.json' })).json();
      assert.deepEqual(Object.keys(document.webhooks).sort(), Object.keys(WEBHOOK_EVENTS).sort());
      const page = (await t.app.inject({ url: '/docs/events' })).body;
      for (const [type, schema] of Object.entries(WEBHOOK_EVENTS)) {
        const operation = document.webhooks[type].post;
        assert.deepEqual(
          operation.parameters.map((parameter: { name: string }) => parameter.name),
          ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
        );
        assert.equal(operation.requestBody.content['application/json'].schema.title, type);
        const example = (schema as { examples?: unknown[] }).examples?.[0];
        assert.ok(Check(schema, example), `the example of ${type} matches its schema`);
        assert.match(page, new RegExp(`<section id="${type.replace('.', '\\.')}"`));
      }
    });
  });
}
