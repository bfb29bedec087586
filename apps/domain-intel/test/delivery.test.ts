import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { databaseTargets, testTimeoutEnv } from '@repo/server-kit/testing';
import { feedRow } from './feed-helpers.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { startSmtpServer, type TestSmtpServer } from './smtp-helpers.ts';
import { startReceiver } from './webhook-receiver.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

for (const target of databaseTargets()) {
  describe(`saved filters and delivery (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let key: string;

    before(async () => {
      smtp = await startSmtpServer();
      receiver = await startReceiver();
      t = await createTestApp({
        target,
        env: {
          RDAP_ALLOW_INSECURE: '1',
          SMTP_URL: smtp.url,
          DELIVERY_TIMEOUT_MS: testTimeoutEnv(2_000),
          TRACKED_TLDS: 'com,net',
        },
      });
      key = await t.keyFor('enterprise');
    });
    after(async () => {
      await t.close();
      await receiver.close();
      await smtp.close();
    });
    beforeEach(() => receiver.answer('ok'));

    const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, as = key) =>
      t.app.inject({ method, url, headers: bearer(as), ...(payload ? { payload: payload as object } : {}) });
    const insert = (rows: ReturnType<typeof feedRow>[]) =>
      t.app.ctx.database.db.insertInto('feed_domains').values(rows).execute();
    const deliverNow = () => t.app.ctx.delivery.run();

    it('saves filters through /account with the feed validation, limits and plan gate', async () => {
      const bad = await api('POST', '/account/filters', { name: 'x', filter: 'min_da=500' });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.code, 'invalid_min_da');
      const unknown = await api('POST', '/account/filters', { name: 'x', filter: 'colour=red' });
      assert.equal(unknown.json().error.code, 'unknown_filter_parameter');
      const twice = await api('POST', '/account/filters', { name: 'x', filter: 'tld=com&tld=net' });
      assert.equal(twice.json().error.code, 'duplicate_filter_parameter');
      const control = await api('POST', '/account/filters', { name: 'a\u0000b', filter: 'tld=com' });
      assert.equal(control.json().error.code, 'invalid_name');

      const free = await t.keyFor('free');
      const first = await api('POST', '/account/filters', { name: 'one', filter: { tld: 'com' } }, free);
      assert.equal(first.statusCode, 201, first.body);
      const second = await api('POST', '/account/filters', { name: 'two', filter: 'tld=net' }, free);
      assert.equal(second.statusCode, 403);
      assert.equal(second.json().error.code, 'plan_limit_reached');
      // Free may add a webhook for its account events, but not e-mail or SFTP targets, nor filter delivery.
      const hook = await api('POST', '/account/targets', { kind: 'webhook', address: receiver.url }, free);
      assert.equal(hook.statusCode, 201, hook.body);
      const mail = await api('POST', '/account/targets', { kind: 'email', address: 'me@example.com' }, free);
      assert.equal(mail.json().error.code, 'plan_required');
      assert.equal(mail.json().error.details.feature, 'delivery_targets');
      await api('DELETE', `/account/filters/${first.json().data.filter_id}`, undefined, free);
      const delivered = await api(
        'POST',
        '/account/filters',
        { name: 'hooked', filter: 'tld=com', target_ids: [hook.json().data.target_id] },
        free,
      );
      assert.equal(delivered.json().error.code, 'plan_required');
      await api('POST', '/account/filters', { name: 'one', filter: { tld: 'com' } }, free);
      const list = await api('GET', '/account/filters', undefined, free);
      assert.deepEqual(
        list
          .json()
          .data.map((view: { name: string; filter: string; paused: boolean }) => [view.name, view.filter, view.paused]),
        [['one', 'tld=com', false]],
      );
      // Not counted against the quota.
      const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(free) });
      assert.equal(quota.json().data.used, 0);
    });

    it('never exceeds the saved-filter limit under concurrent adds (one account lock per add)', async () => {
      const free = await t.keyFor('free');
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          api('POST', '/account/filters', { name: `race ${i}`, filter: 'tld=com' }, free),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      assert.deepEqual(statuses, [201, 403, 403, 403, 403, 403, 403, 403], answers.map((a) => a.body).join('\n'));
      assert.equal((await api('GET', '/account/filters', undefined, free)).json().data.length, 1);
    });

    it('refuses private and loopback webhook targets outside the insecure mode', async () => {
      for (const address of ['http://10.0.0.1/hook', 'https://169.254.169.254/latest', 'ftp://example.com/x']) {
        const response = await api('POST', '/account/targets', { kind: 'webhook', address });
        assert.equal(response.statusCode, 400, address);
        assert.equal(response.json().error.code, 'target_not_allowed', address);
      }
      const strict = await createTestApp({ target, env: { TRACKED_TLDS: 'com,net' } });
      try {
        const enterprise = await strict.keyFor('enterprise');
        const loopback = await strict.app.inject({
          method: 'POST',
          url: '/account/targets',
          headers: bearer(enterprise),
          payload: { kind: 'webhook', address: receiver.url },
        });
        assert.equal(loopback.json().error.code, 'target_not_allowed');
      } finally {
        await strict.close();
      }
    });

    it('delivers each new match once, signed, in order; retries a 500 and a timeout; dead-letters after 24 h; redelivers', async () => {
      const created = await api('POST', '/account/targets', { kind: 'webhook', address: receiver.url });
      assert.equal(created.statusCode, 201, created.body);
      const hook = created.json().data;
      assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
      receiver.setSecret(hook.secret);
      const mail = (await api('POST', '/account/targets', { kind: 'email', address: 'Investor@Example.com' })).json()
        .data;
      const saved = await api('POST', '/account/filters', {
        name: 'com with DA',
        filter: 'tld=com&min_da=20&hyphens=false',
        target_ids: [hook.target_id, mail.target_id],
      });
      assert.equal(saved.statusCode, 201, saved.body);
      const filterId = saved.json().data.filter_id;

      t.clock.advance(MINUTE);
      const at = t.clock.now();
      await insert([
        feedRow('alpha.com', { da: 30, updated_at: at, status_since: at - 2 }),
        feedRow('beta.com', { da: 50, updated_at: at, status_since: at - 1 }),
        feedRow('low.com', { da: 5, updated_at: at }),
        feedRow('has-hyphen.com', { da: 60, updated_at: at }),
        feedRow('gamma.net', { da: 90, updated_at: at }),
      ]);
      const first = await deliverNow();
      assert.deepEqual(first.sent, { delivered: 2, retrying: 0, dead: 0 });
      assert.deepEqual(receiver.uniqueRows(), ['alpha.com', 'beta.com']);
      const batch = receiver.received[0]!;
      assert.equal(batch.body.type, 'filter.batch');
      assert.equal(batch.body.data.sequence, 1);
      assert.equal(batch.id, batch.body.data.batch_id);
      const mailed = await smtp.nextMail();
      assert.deepEqual(mailed.to, ['investor@example.com']);
      assert.match(mailed.raw, /Subject: =\?UTF-8\?Q\?2_new_matches_for_=22com_with_DA=22\?=/);
      assert.match(mailed.raw, /alpha\.com {2}\(dropped, DA 30\)/);
      assert.match(mailed.raw, /filename=.*\.csv/);

      // Nothing new: nothing sent. A row that changes but was delivered already: not again.
      await t.app.ctx.database.db
        .updateTable('feed_domains')
        .set({ tf: 9, updated_at: t.clock.now() })
        .where('domain', '=', 'alpha.com')
        .execute();
      await deliverNow();
      assert.deepEqual(receiver.uniqueRows(), ['alpha.com', 'beta.com']);

      // The receiver fails: retried with back-off, in order (batch 3 waits for batch 2).
      receiver.answer('fail');
      t.clock.advance(MINUTE);
      await insert([feedRow('delta.com', { da: 40, updated_at: t.clock.now() })]);
      const failing = await deliverNow();
      assert.equal(failing.sent.retrying, 1);
      t.clock.advance(MINUTE);
      await insert([feedRow('epsilon.com', { da: 40, updated_at: t.clock.now() })]);
      receiver.answer('hang');
      t.clock.advance(HOUR);
      const hanging = await deliverNow();
      assert.equal(hanging.sent.retrying, 1, 'the timeout is a failed attempt; batch 3 waits');
      const log = (await api('GET', `/v1/deliveries?filter_id=${filterId}`)).json().data;
      const second = log.find(
        (entry: { sequence: number; target: string }) => entry.sequence === 2 && entry.target === hook.target_id,
      );
      assert.equal(second.status, 'pending');
      assert.equal(second.attempts, 2);
      assert.match(second.last_error, /timeout|aborted|Timeout/i);

      // Recovered: batch 2 then batch 3, each once.
      receiver.answer('ok');
      t.clock.advance(4 * HOUR);
      await deliverNow();
      assert.deepEqual(receiver.uniqueRows(), ['alpha.com', 'beta.com', 'delta.com', 'epsilon.com']);
      assert.deepEqual(
        receiver.received.map((entry) => entry.body.data.sequence),
        [1, 2, 3],
      );

      // 24 hours of failures: dead-lettered, and a delivery.failed event is recorded.
      receiver.answer('fail');
      t.clock.advance(MINUTE);
      await insert([feedRow('zeta.com', { da: 40, updated_at: t.clock.now() })]);
      await deliverNow();
      for (let hours = 0; hours < 26; hours += 3) {
        t.clock.advance(3 * HOUR);
        await t.app.ctx.delivery.sendDue();
      }
      const dead = (await api('GET', `/v1/deliveries?filter_id=${filterId}`))
        .json()
        .data.find(
          (entry: { sequence: number; target: string }) => entry.sequence === 4 && entry.target === hook.target_id,
        );
      assert.equal(dead.status, 'dead');
      const events = await t.app.ctx.database.db
        .selectFrom('delivery_messages')
        .select(['type', 'payload'])
        .where('type', '=', 'delivery.failed')
        .execute();
      assert.equal(events.length, 1);
      assert.equal(JSON.parse(events[0]!.payload).data.delivery_id, dead.delivery_id);

      // Redeliver: the same id and body once the receiver is back.
      receiver.answer('ok');
      const redelivered = await api('POST', `/account/deliveries/${dead.delivery_id}/redeliver`);
      assert.equal(redelivered.statusCode, 200, redelivered.body);
      assert.equal(redelivered.json().data.status, 'pending');
      await t.app.ctx.delivery.sendDue();
      const last = receiver.received.at(-1)!;
      assert.equal(last.id, dead.batch_id);
      assert.deepEqual(
        last.body.data.rows.map((row) => row.domain),
        ['zeta.com'],
      );
      const again = await api('POST', `/account/deliveries/${dead.delivery_id}/redeliver`);
      assert.equal(again.statusCode, 200);
      await t.app.ctx.delivery.sendDue();
      assert.equal(receiver.received.at(-1)!.id, dead.batch_id, 'a redelivery resends the same batch id');
      assert.deepEqual(receiver.uniqueRows(), ['alpha.com', 'beta.com', 'delta.com', 'epsilon.com', 'zeta.com']);
      assert.equal(
        (await api('POST', '/account/deliveries/dlv_nope/redeliver')).json().error.code,
        'delivery_not_found',
      );
    });

    it('a crash mid-batching, then a re-run, batches every row exactly once', async () => {
      const owner = await t.keyFor('starter');
      const created = await api('POST', '/account/filters', { name: 'crash rows', filter: 'contains=crash' }, owner);
      const filterId = created.json().data.filter_id;
      t.clock.advance(MINUTE);
      const at = t.clock.now();
      await insert(
        Array.from({ length: 30 }, (_, i) => feedRow(`crash${String(i).padStart(2, '0')}.com`, { updated_at: at })),
      );
      // The first insert of filter_matches fails halfway through the batch's transaction.
      const outbox = t.app.ctx.outbox;
      const original = outbox.recordFilterBatches.bind(outbox);
      let crashes = 1;
      outbox.recordFilterBatches = async (filter, matched, targets, through) => {
        if (filter.id === filterId && crashes-- > 0) {
          await t.app.ctx.database.db.transaction().execute(async (trx) => {
            await trx
              .insertInto('filter_matches')
              .values({ filter_id: filterId, domain: 'crash00.com', episode: 1, message_id: 'x' })
              .execute();
            throw new Error('process killed');
          });
        }
        return original(filter, matched, targets, through);
      };
      await assert.rejects(deliverNow(), /process killed/);
      outbox.recordFilterBatches = original;
      await deliverNow();
      await deliverNow();
      const rows = await t.app.ctx.database.db
        .selectFrom('filter_matches')
        .select(['domain'])
        .where('filter_id', '=', filterId)
        .execute();
      assert.equal(rows.length, 30);
      assert.equal(new Set(rows.map((row) => row.domain)).size, 30);
      const log = (await api('GET', `/v1/deliveries?filter_id=${filterId}`, undefined, owner)).json().data;
      assert.deepEqual(
        log.map((entry: { target: string; rows: number; status: string }) => [entry.target, entry.rows, entry.status]),
        [['dashboard', 30, 'delivered']],
      );
    });

    it('pauses filters over the plan limit after a downgrade, never deletes them', async () => {
      const email = `downgrade-${Date.now()}@example.com`;
      const enterprise = await t.keyFor('enterprise', email);
      for (const name of ['a', 'b', 'c']) {
        t.clock.advance(1_000);
        assert.equal((await api('POST', '/account/filters', { name, filter: 'tld=com' }, enterprise)).statusCode, 201);
      }
      await t.app.ctx.accounts.setPlan(email, 'free');
      const views = (await api('GET', '/account/filters', undefined, enterprise)).json().data;
      assert.deepEqual(
        views.map((view: { name: string; paused: boolean }) => [view.name, view.paused]),
        [
          ['a', false],
          ['b', true],
          ['c', true],
        ],
      );
    });

    it('records key events for the account webhooks, once each', async () => {
      const email = `events-${Date.now()}@example.com`;
      const enterprise = await t.keyFor('enterprise', email);
      const hook = (
        await api('POST', '/account/targets', { kind: 'webhook', address: receiver.url }, enterprise)
      ).json().data;
      receiver.setSecret(hook.secret);
      const issued = await t.app.ctx.accounts.createKey(email, 'ci');
      await t.app.ctx.accounts.revokeKey(email, issued.key_id);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const before = receiver.received.length;
      await t.app.ctx.delivery.sendDue();
      // The receiver is shared: earlier tests' accounts may still have events coming due (their
      // clock moved on), so only this key's events are counted.
      const types = receiver.received
        .slice(before)
        .filter((entry) => entry.body.data.key_id === issued.key_id)
        .map((entry) => entry.body.type);
      assert.deepEqual(types.sort(), ['key.created', 'key.revoked']);
    });
  });
}
