import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, testTimeoutEnv } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { feedRow } from '../../../apps/domain-intel/test/feed-helpers.ts';
import { simRdapEnv } from '../../../apps/domain-intel/test/rdap-helpers.ts';
import { startReceiver, type WebhookReceiver } from '../../../apps/domain-intel/test/webhook-receiver.ts';
import { DomainIntelClient, DomainIntelError, hasCode, type WebhookEvent } from '../src/index.ts';
import { type RunningDomainIntel, startDomainIntel } from './servers.ts';

for (const target of databaseTargets()) {
  describe(`DomainIntelClient management: filters, targets, deliveries, watchlist (${target.name})`, {
    skip: target.skip,
  }, () => {
    let sim: UpstreamSim;
    let receiver: WebhookReceiver;
    let t: RunningDomainIntel;
    let enterprise: DomainIntelClient;
    let free: DomainIntelClient;

    before(async () => {
      sim = await startUpstreamSim();
      sim.world.register('taken.org');
      receiver = await startReceiver();
      t = await startDomainIntel(
        target,
        simRdapEnv(sim, { TRACKED_TLDS: 'com,net', DELIVERY_TIMEOUT_MS: testTimeoutEnv(2_000) }),
      );
      enterprise = new DomainIntelClient({ baseUrl: t.baseUrl, apiKey: await t.keyFor('enterprise') });
      free = new DomainIntelClient({ baseUrl: t.baseUrl, apiKey: await t.keyFor('free') });
    });
    after(async () => {
      await t?.close();
      await receiver?.close();
      await sim?.close();
    });

    it('saves a filter with a webhook, delivers its batch, reads the log and redelivers', async () => {
      const hook = await enterprise.createTarget({ kind: 'webhook', address: receiver.url });
      assert.equal(hook.kind, 'webhook');
      assert.match(hook.secret ?? '', /^whsec_/);
      receiver.setSecret(hook.secret!);
      assert.deepEqual(
        (await enterprise.targets()).map((listed) => [listed.target_id, listed.kind]),
        [[hook.target_id, 'webhook']],
      );

      const saved = await enterprise.createFilter({
        name: 'short com',
        filter: { tld: 'com', minDa: 20, hyphens: false, maxLength: 8 },
        targetIds: [hook.target_id],
      });
      assert.equal(saved.filter, 'tld=com&min_da=20&max_length=8&hyphens=false');
      assert.deepEqual(saved.target_ids, [hook.target_id]);
      t.clock.advance(1_000); // listed oldest first
      const fromText = await enterprise.createFilter({ name: 'as text', filter: 'status=pending-delete' });
      assert.deepEqual(
        (await enterprise.filters()).map((filter) => filter.name),
        ['short com', 'as text'],
      );

      t.clock.advance(60_000);
      await t.app.ctx.database.db
        .insertInto('feed_domains')
        .values([
          feedRow('sdkbrand.com', { da: 40, updated_at: t.clock.now() }),
          feedRow('too-long-name.com', { da: 40, updated_at: t.clock.now() }),
        ])
        .execute();
      await t.app.ctx.delivery.run();
      const [entry] = await enterprise.deliveries({ filterId: saved.filter_id });
      assert.equal(entry?.status, 'delivered');
      assert.equal(entry?.rows, 1);
      assert.equal(entry?.target, hook.target_id);
      const batch = receiver.received.at(-1)!.body as unknown as WebhookEvent;
      assert.equal(batch.type, 'filter.batch');
      if (batch.type === 'filter.batch')
        assert.deepEqual(
          batch.data.rows.map((row) => row.domain),
          ['sdkbrand.com'],
        );

      const again = await enterprise.redeliver(entry!.delivery_id);
      assert.equal(again.status, 'pending');
      await t.app.ctx.delivery.sendDue();
      assert.equal(receiver.received.at(-1)!.id, entry!.batch_id, 'the same webhook-id');

      await enterprise.deleteFilter(fromText.filter_id);
      await assert.rejects(enterprise.deleteFilter(fromText.filter_id), (error: unknown) =>
        hasCode(error, 'filter_not_found'),
      );

      // A brand filter: its term comes back normalised; a one-letter term is a catalogued error.
      const brand = await enterprise.createFilter({ name: 'brand', filter: { tld: 'com' }, brand: 'SDKBrand' });
      assert.equal(brand.brand, 'sdkbrand');
      assert.equal(saved.brand, null);
      await assert.rejects(
        enterprise.createFilter({ name: 'one letter', filter: 'tld=com', brand: 's' }),
        (error: unknown) => hasCode(error, 'invalid_brand_term'),
      );
      await enterprise.deleteFilter(brand.filter_id);
      await enterprise.deleteTarget(hook.target_id);
      assert.deepEqual(await enterprise.targets(), []);
    });

    it('watches, lists and unwatches names; errors arrive as DomainIntelError with their codes', async () => {
      const watched = await enterprise.watch('taken.org');
      assert.equal(watched.domain, 'taken.org');
      assert.equal(watched.status, 'registered');
      assert.equal(watched.evidence?.source, 'rdap');
      t.clock.advance(1_000); // the list is oldest first
      await enterprise.watch('free-for-now.org');
      const page = await enterprise.watchlist({ limit: 1 });
      assert.equal(page.total, 2);
      assert.equal(page.items.length, 1);
      assert.equal(page.items[0]!.domain, 'taken.org');
      await enterprise.unwatch('taken.org');
      assert.equal((await enterprise.watchlist()).total, 1);

      await assert.rejects(enterprise.watch('name.gr'), (error: unknown) => {
        assert.ok(error instanceof DomainIntelError);
        assert.equal(error.status, 400);
        return hasCode(error, 'tld_without_registry_service');
      });
      await assert.rejects(free.createTarget({ kind: 'sftp', address: 'sftp://me@example.com/in' }), (error: unknown) =>
        hasCode(error, 'plan_required'),
      );
      // Management is never counted against the quota.
      assert.equal((await free.quota()).used, 0);
    });
  });
}
