import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { WatchTransitionEvent } from '@repo/contracts/domain-intel';
import { databaseTargets, tempDir, testTimeout, testTimeoutEnv } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { Check } from 'typebox/value';
import { loadDomainIntelConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import type { ZoneChange } from '../src/lifecycle/index.ts';
import { WatchlistStore } from '../src/watchlist/watchlist-store.ts';
import { createTestApp, injectAs, type TestApp } from './helpers.ts';
import { simRdapEnv } from './rdap-helpers.ts';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

async function* changes(list: ZoneChange[]): AsyncGenerator<ZoneChange> {
  yield* list;
}

for (const target of databaseTargets()) {
  describe(`watchlists (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    let receiver: WebhookReceiver;
    let emailCounter = 0;

    before(async () => {
      sim = await startUpstreamSim();
      receiver = await startReceiver();
      t = await createTestApp({
        target,
        env: simRdapEnv(sim, { TRACKED_TLDS: 'com,net', DELIVERY_TIMEOUT_MS: testTimeoutEnv(2_000) }),
      });
    });
    after(async () => {
      await t?.close();
      await receiver?.close();
      await sim?.close();
    });

    const api = (method: 'GET' | 'POST' | 'DELETE', url: string, key: string, payload?: object) =>
      injectAs(t, key, method, url, payload);
    const follow = () => t.app.ctx.watchlist.follow({ deadline: Date.now() + testTimeout(10_000) });
    const watchOf = async (key: string, domain: string) =>
      (await api('GET', '/v1/watchlist?limit=1000', key))
        .json()
        .data.find((row: { domain: string }) => row.domain === domain);
    /** An Enterprise account with a webhook target on the receiver. */
    async function enterpriseWithWebhook() {
      const email = `watcher-${++emailCounter}-${target.name}@example.com`;
      const key = await t.keyFor('enterprise', email);
      const hook = (await api('POST', '/account/targets', key, { kind: 'webhook', address: receiver.url })).json().data;
      receiver.setSecret(hook.secret);
      const { account_id } = await t.app.ctx.accounts.summary(email);
      return { key, email, accountId: account_id as string };
    }
    /** The watch.transition events of a name, as the webhook receiver verified them. */
    async function receivedTransitions(domain: string) {
      await t.app.ctx.delivery.sendDue();
      return receiver.received
        .filter((entry) => entry.body.type === 'watch.transition' && entry.body.data.domain === domain)
        .map((entry) => entry.body);
    }

    it('watches any name under a TLD with RDAP, registered or not, with a first look; refuses what it cannot follow', async () => {
      const key = await t.keyFor('starter');
      sim.world.register('taken.org');
      const added = await api('POST', '/account/watchlist', key, { domain: 'Taken.ORG' });
      assert.equal(added.statusCode, 201, added.body);
      const watch = added.json().data;
      assert.equal(watch.domain, 'taken.org');
      assert.equal(watch.status, 'registered');
      assert.equal(watch.evidence.source, 'rdap');
      assert.equal(watch.expected_drop_at, null);
      assert.ok(Date.parse(watch.next_check_at) > t.clock.now());

      t.clock.advance(1_000);
      const free = await api('POST', '/account/watchlist', key, { domain: 'nobody-has-this.xyz' });
      assert.equal(free.statusCode, 201);
      assert.equal(free.json().data.status, 'available');
      assert.equal((await api('POST', '/account/watchlist', key, { domain: 'taken.org' })).statusCode, 200);

      for (const [domain, code] of [
        ['not a name', 'invalid_domain'],
        // .gr: no RDAP server, and no WHOIS server at IANA.
        ['name.gr', 'tld_without_registry_service'],
        ['sub.taken.org', 'subdomain_not_allowed'],
      ]) {
        const refused = await api('POST', '/account/watchlist', key, { domain });
        assert.equal(refused.statusCode, 400, domain);
        assert.equal(refused.json().error.code, code, domain);
      }
      const missing = await api('DELETE', '/account/watchlist/never-watched.org', key);
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().error.code, 'watch_not_found');

      const list = (await api('GET', '/account/watchlist', key)).json();
      assert.deepEqual(
        list.data.map((row: { domain: string }) => row.domain),
        ['taken.org', 'nobody-has-this.xyz'],
      );
      assert.equal(list.meta.total, 2);
      assert.equal((await api('DELETE', '/account/watchlist/taken.org', key)).statusCode, 204);
      assert.equal((await api('GET', '/v1/watchlist', key)).json().meta.total, 1);
      assert.equal((await api('GET', '/v1/watchlist?limit=0', key)).json().error.code, 'invalid_limit');
      // Management and the watchlist never count against the quota.
      assert.equal((await api('GET', '/v1/quota', key)).json().data.used, 0);
    });

    it('never exceeds the watchlist limit under concurrent adds (Free: 10)', async () => {
      const key = await t.keyFor('free');
      for (let i = 0; i < 9; i++) {
        assert.equal((await api('POST', '/account/watchlist', key, { domain: `early-${i}.org` })).statusCode, 201);
      }
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => api('POST', '/account/watchlist', key, { domain: `race-${i}.org` })),
      );
      assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [201, 403, 403, 403, 403, 403]);
      assert.ok(
        answers
          .filter((answer) => answer.statusCode === 403)
          .every((a) => a.json().error.code === 'plan_limit_reached'),
      );
      assert.equal((await api('GET', '/v1/watchlist', key)).json().meta.total, 10);
    });

    it('follows an untracked-TLD name by RDAP through redemption, pending delete, the drop and a re-registration', async () => {
      const { key } = await enterpriseWithWebhook();
      // Expired a while ago: re-checked daily, as a registered name that may start to drop.
      sim.world.register('wanted.org', { expiresAt: t.clock.now() - 40 * DAY });
      assert.equal(
        (await api('POST', '/account/watchlist', key, { domain: 'wanted.org' })).json().data.status,
        'registered',
      );
      const nextCheck = Date.parse((await watchOf(key, 'wanted.org')).next_check_at);
      assert.equal(nextCheck, t.clock.now() + DAY, 'untracked and expired: looked at daily');

      const step = async (change: () => void) => {
        change();
        t.clock.advance(DAY + MINUTE);
        await follow();
        return watchOf(key, 'wanted.org');
      };
      const domain = sim.world.get('wanted.org')!;
      const redemption = await step(() => {
        domain.status = ['redemption period'];
        domain.inZone = false;
      });
      assert.equal(redemption.status, 'redemption');
      assert.equal(Date.parse(redemption.expected_drop_at), Date.parse(redemption.status_since) + 35 * DAY);
      const pending = await step(() => {
        domain.status = ['pending delete'];
      });
      assert.equal(pending.status, 'pending-delete');
      assert.equal(Date.parse(pending.expected_drop_at), t.clock.now() + 5 * DAY);
      assert.deepEqual(pending.evidence.detail.status, ['pending delete']);
      // Near the drop the re-checks come hourly (the lifecycle's schedule).
      t.clock.advance(5 * DAY - 6 * HOUR);
      await follow();
      assert.equal(Date.parse((await watchOf(key, 'wanted.org')).next_check_at), t.clock.now() + HOUR);
      const dropped = await step(() => sim.world.purge('wanted.org'));
      assert.equal(dropped.status, 'available');
      assert.equal(dropped.expected_drop_at, null);
      const back = await step(() => sim.world.register('wanted.org'));
      assert.equal(back.status, 'registered');

      const events = await receivedTransitions('wanted.org');
      assert.deepEqual(
        events.map((event) => [event.data.transition, event.data.from, event.data.to]),
        [
          ['redemption', 'registered', 'redemption'],
          ['pending-delete', 'redemption', 'pending-delete'],
          ['dropped', 'pending-delete', 'available'],
          ['re-registered', 'available', 'registered'],
        ],
      );
      for (const event of events) assert.ok(Check(WatchTransitionEvent, event), JSON.stringify(event));
      assert.equal(events[1]!.data.expected_drop_at, pending.expected_drop_at);
    });

    it('follows a tracked-TLD name by the lifecycle (zone diff and its RDAP re-checks) without asking RDAP again', async () => {
      const { key } = await enterpriseWithWebhook();
      sim.world.register('brand.com');
      assert.equal(
        (await api('POST', '/account/watchlist', key, { domain: 'brand.com' })).json().data.status,
        'registered',
      );
      const lifecycle = t.app.ctx.lifecycle;

      t.clock.advance(HOUR);
      sim.world.get('brand.com')!.inZone = false;
      await lifecycle.applyZoneDiff({
        tld: 'com',
        fromDate: '2026-03-09',
        toDate: '2026-03-10',
        changes: changes([{ name: 'brand.com', change: 'removed' }]),
      });
      await follow();
      const left = await watchOf(key, 'brand.com');
      assert.equal(left.status, 'left-zone');
      assert.equal(left.evidence.source, 'lifecycle');
      assert.equal(left.evidence.detail.zone_date, '2026-03-10');
      assert.equal(Date.parse(left.expected_drop_at), t.clock.now() + 35 * DAY);

      // The lifecycle's RDAP re-check moves it on; the watchlist takes its word and asks nobody.
      sim.world.get('brand.com')!.status = ['redemption period'];
      t.clock.advance(MINUTE);
      await lifecycle.recheckDue();
      t.clock.advance(2 * DAY);
      const asked = sim.rdap.requestCount('verisign');
      await follow();
      assert.equal(sim.rdap.requestCount('verisign'), asked, 'no RDAP lookup of a name the lifecycle follows');
      assert.equal((await watchOf(key, 'brand.com')).status, 'redemption');

      // Purged: the lifecycle's next planned look finds the 404.
      sim.world.purge('brand.com');
      const planned = await t.app.ctx.database.db
        .selectFrom('feed_domains')
        .select('next_check_at')
        .where('domain', '=', 'brand.com')
        .executeTakeFirstOrThrow();
      t.clock.set(Math.max(planned.next_check_at!, t.clock.now() + DAY));
      await lifecycle.recheckDue();
      await follow();
      assert.equal((await watchOf(key, 'brand.com')).status, 'available');

      t.clock.advance(DAY);
      sim.world.register('brand.com');
      await lifecycle.applyZoneDiff({
        tld: 'com',
        fromDate: '2026-03-12',
        toDate: '2026-03-13',
        changes: changes([{ name: 'brand.com', change: 'added' }]),
      });
      await follow();
      assert.equal((await watchOf(key, 'brand.com')).status, 'registered');

      const events = await receivedTransitions('brand.com');
      assert.deepEqual(
        events.map((event) => [event.data.transition, (event.data.evidence as { source: string }).source]),
        [
          ['left-zone', 'lifecycle'],
          ['redemption', 'lifecycle'],
          ['dropped', 'lifecycle'],
          ['re-registered', 'lifecycle'],
        ],
      );
    });

    it('records a transition once when the process dies between the event and the row', async () => {
      const { key, accountId } = await enterpriseWithWebhook();
      sim.world.register('crashy.org', { expiresAt: t.clock.now() - 40 * DAY });
      await api('POST', '/account/watchlist', key, { domain: 'crashy.org' });
      sim.world.get('crashy.org')!.status = ['redemption period'];
      t.clock.advance(DAY + MINUTE);
      const original = WatchlistStore.prototype.update;
      WatchlistStore.prototype.update = async function (row, update) {
        if (row.domain === 'crashy.org') throw new Error('process killed');
        return original.call(this, row, update);
      };
      try {
        await assert.rejects(follow(), /process killed/);
      } finally {
        WatchlistStore.prototype.update = original;
      }
      const recorded = () =>
        t.app.ctx.database.db
          .selectFrom('delivery_messages')
          .select('id')
          .where('account_id', '=', accountId)
          .where('type', '=', 'watch.transition')
          .execute();
      assert.equal((await recorded()).length, 1, 'the event was stored before the row was to move');
      await follow();
      await follow();
      const messages = await t.app.ctx.database.db
        .selectFrom('delivery_messages')
        .select('payload')
        .where('account_id', '=', accountId)
        .where('type', '=', 'watch.transition')
        .execute();
      assert.deepEqual(
        messages.map((message) => JSON.parse(message.payload).data.transition),
        ['redemption'],
      );
      assert.equal((await watchOf(key, 'crashy.org')).status, 'redemption');
    });

    it('pauses names over the limit after a downgrade and does not follow them', async () => {
      const email = `downgrade-${target.name}@example.com`;
      const key = await t.keyFor('starter', email);
      for (let i = 0; i < 12; i++) {
        t.clock.advance(1_000);
        await api('POST', '/account/watchlist', key, { domain: `keep-${String(i).padStart(2, '0')}.org` });
      }
      await t.app.ctx.accounts.setPlan(email, 'free');
      const list = (await api('GET', '/v1/watchlist', key)).json().data;
      assert.deepEqual(
        list.map((row: { paused: boolean }) => row.paused),
        [...Array(10).fill(false), true, true],
      );
      t.clock.advance(2 * DAY);
      const report = await follow();
      const paused = (await api('GET', '/v1/watchlist', key)).json().data.slice(10);
      assert.ok(paused.every((row: { checked_at: string }) => Date.parse(row.checked_at) < t.clock.now() - DAY));
      assert.ok(report.checked >= 10);
    });
  });
}

describe('domain-intel watch CLI', () => {
  let sim: UpstreamSim;
  const temp = tempDir('watch-cli');
  before(async () => {
    sim = await startUpstreamSim();
    sim.world.register('cli-taken.org');
  });
  after(async () => {
    await sim.close();
    temp.remove();
  });

  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, [path.join(import.meta.dirname, '..', 'bin', 'domain-intel.js'), ...args], {
      env: { ...process.env, ...simRdapEnv(sim), DATA_DIR: temp.dir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    });

  it('adds and lists watched names for an account, as JSON', async () => {
    const ctx = await createContext(
      loadDomainIntelConfig({ NODE_ENV: 'test', DATA_DIR: temp.dir, LOG_LEVEL: 'silent', ...simRdapEnv(sim) }),
    );
    await ctx.accounts.signUp({ email: 'cli@example.com', plan: 'starter' });
    await ctx.close();
    const added = JSON.parse(
      (await run('watch', 'add', '--email', 'cli@example.com', '--domain', 'cli-taken.org', '--json')).stdout,
    );
    assert.equal(added.domain, 'cli-taken.org');
    assert.equal(added.status, 'registered');
    assert.equal(added.added, true);
    const listed = JSON.parse((await run('watch', 'list', '--email', 'cli@example.com', '--json')).stdout);
    assert.deepEqual(
      listed.map((row: { domain: string; status: string }) => [row.domain, row.status]),
      [['cli-taken.org', 'registered']],
    );
  });
});
