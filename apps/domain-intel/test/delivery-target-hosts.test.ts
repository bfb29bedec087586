import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import type { HostResolver } from '@repo/webhooks/target-host';
import { PLANS } from '../src/accounts/plans.ts';
import { DeliveryTargets } from '../src/delivery/targets.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

/** A DNS of our own: these names answer what a hostile or mistaken zone could. */
const ZONE: Record<string, readonly string[]> = {
  'hooks.internal.example': ['10.1.2.3'],
  'mixed.example': ['93.184.215.14', '10.20.30.40'],
  'mapped.example': ['::ffff:192.168.0.10'],
  'metadata.example': ['169.254.169.254'],
  'loopback.example': ['127.0.0.1', '::1'],
  'public.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
};
const stubResolver: HostResolver = async (host) => {
  const addresses = ZONE[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses;
};

for (const target of databaseTargets()) {
  describe(`webhook and SFTP targets whose names resolve to private addresses (${target.name})`, {
    skip: target.skip,
  }, () => {
    let strict: TestApp;
    let insecure: TestApp;
    before(async () => {
      strict = await createTestApp({ target });
      insecure = await createTestApp({ target, env: { RDAP_ALLOW_INSECURE: '1' } });
    });
    after(async () => {
      await strict?.close();
      await insecure?.close();
    });

    const addTarget = async (t: TestApp, key: string, kind: string, address: string) =>
      t.app.inject({ method: 'POST', url: '/account/targets', headers: bearer(key), payload: { kind, address } });

    it('refuses localhost at creation with 400 target_not_allowed, as a delivery to it would be', async () => {
      const key = await strict.keyFor('enterprise');
      for (const [kind, address] of [
        ['webhook', 'https://localhost/hook'],
        ['webhook', 'https://LOCALHOST:8443/hook'],
        ['sftp', 'sftp://me@localhost/drop'],
        ['sftp', 'sftp://me@localhost:2222/drop'],
      ] as const) {
        const refused = await addTarget(strict, key, kind, address);
        assert.equal(refused.statusCode, 400, `${address}: ${refused.body}`);
        assert.equal(refused.json().error.code, 'target_not_allowed', address);
        assert.match(
          refused.json().error.message,
          /^localhost resolves to (127\.0\.0\.1|::1), which is not a public address\./,
        );
      }
      const listed = await strict.app.inject({ url: '/account/targets', headers: bearer(key) });
      assert.deepEqual(listed.json().data, [], 'nothing was stored');
    });

    it('allows localhost in the insecure mode (RDAP_ALLOW_INSECURE=1), as deliveries do', async () => {
      const key = await insecure.keyFor('enterprise');
      for (const [kind, address] of [
        ['webhook', 'http://localhost:8080/hook'],
        ['sftp', 'sftp://me@localhost:2222/drop'],
      ] as const) {
        const created = await addTarget(insecure, key, kind, address);
        assert.equal(created.statusCode, 201, `${address}: ${created.body}`);
      }
    });

    it('refuses a name with any private, mapped, link-local or (outside the insecure mode) loopback address', async () => {
      for (const [app, allowInsecure] of [
        [strict, false],
        [insecure, true],
      ] as const) {
        const targets = new DeliveryTargets(app.app.ctx.database.db, app.clock, { allowInsecure }, stubResolver);
        await app.keyFor('enterprise', `hosts-${allowInsecure}@example.com`);
        const account = await app.app.ctx.accounts.summary(`hosts-${allowInsecure}@example.com`);
        const caller = { accountId: account.account_id, plan: PLANS.enterprise };
        const refusals: Array<[string, string, string]> = [
          ['webhook', 'https://hooks.internal.example/x', '10.1.2.3'],
          ['webhook', 'https://mixed.example/x', '10.20.30.40'],
          ['webhook', 'https://mapped.example/x', '::ffff:192.168.0.10'],
          ['sftp', 'sftp://me@metadata.example/drop', '169.254.169.254'],
          ['sftp', 'sftp://me@hooks.internal.example/drop', '10.1.2.3'],
        ];
        if (!allowInsecure) refusals.push(['webhook', 'https://loopback.example/x', '127.0.0.1']);
        for (const [kind, address, refused] of refusals) {
          await assert.rejects(
            targets.create(caller, { kind, address }),
            (error: { code?: string; message?: string }) => {
              assert.equal(error.code, 'target_not_allowed', address);
              assert.ok(
                error.message?.includes(`resolves to ${refused}, which is not a public address`),
                error.message,
              );
              return true;
            },
            address,
          );
        }
        const accepted = ['https://public.example/x', 'sftp://me@public.example/drop', 'https://unknown.example/x'];
        if (allowInsecure) accepted.push('http://loopback.example/x');
        for (const address of accepted) {
          const kind = address.startsWith('sftp:') ? 'sftp' : 'webhook';
          const created = await targets.create(caller, { kind, address });
          assert.equal(created.address, address, 'a public name, or one that does not resolve yet, is kept');
        }
        assert.equal((await targets.list(account.account_id)).length, accepted.length);
      }
    });
  });
}
