import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { domainToASCII } from 'node:url';
import { databaseTargets, testTimeoutEnv } from '@repo/server-kit/testing';
import { DashboardBrowser } from './dashboard-session.ts';
import { feedRow } from './feed-helpers.ts';
import { createTestApp, injectAs, type TestApp } from './helpers.ts';
import { startReceiver } from './webhook-receiver.ts';

const MINUTE = 60_000;

for (const target of databaseTargets()) {
  describe(`brand alerts with lookalikes (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let key: string;

    before(async () => {
      receiver = await startReceiver();
      t = await createTestApp({
        target,
        env: { RDAP_ALLOW_INSECURE: '1', DELIVERY_TIMEOUT_MS: testTimeoutEnv(2_000), TRACKED_TLDS: 'com,net' },
      });
      key = await t.keyFor('enterprise');
    });
    after(async () => {
      await t.close();
      await receiver.close();
    });

    const api = (method: 'GET' | 'POST', url: string, payload?: object) => injectAs(t, key, method, url, payload);
    const newRegistration = (domain: string, at: number) =>
      feedRow(domain, {
        status: 'new',
        zone_date: '2026-03-10',
        status_since: at,
        updated_at: at,
        left_zone_at: null,
        dropped_at: null,
        verified_at: null,
      });

    it('refuses bad brand terms with the catalogued error', async () => {
      for (const [brand, pattern] of [
        ['x', /at least 3 characters; "x" has 1/],
        ['paypal.com', /without TLD/],
        ['pay pal', /letters, digits and inner hyphens/],
        ['a'.repeat(70), /at most 63/],
        ['a'.repeat(600), /3-63 characters/],
      ] as const) {
        const response = await api('POST', '/account/filters', { name: 'bad brand', filter: 'status=new', brand });
        assert.equal(response.statusCode, 400, brand);
        const { error } = response.json();
        assert.equal(error.code, 'invalid_brand_term', brand);
        assert.match(error.message, pattern);
        assert.equal(error.details.parameter, 'brand');
      }
      const notText = await api('POST', '/account/filters', { name: 'n', filter: 'status=new', brand: 7 });
      assert.equal(notText.json().error.code, 'invalid_brand_term');
      assert.equal((await api('GET', '/account/filters')).json().data.length, 0);
    });

    it('saves a brand filter from the dashboard form and shows its term; a one-letter term is refused there too', async () => {
      const email = `brand-form-${target.name}@example.com`;
      const dashboard = new DashboardBrowser(t.app);
      await dashboard.signIn(email, await t.keyFor('starter', email));
      await dashboard.get('/dashboard/filters');
      const refused = await dashboard.post('/dashboard/filters', {
        name: 'x alerts',
        filter: 'status=new',
        brand: 'x',
      });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.body, /A brand term needs at least 3 characters/);
      const saved = await dashboard.post('/dashboard/filters', { name: 'acme', filter: 'status=new', brand: 'ACME' });
      assert.equal(saved.statusCode, 303, saved.body);
      const page = await dashboard.get('/dashboard/filters');
      assert.match(page.body, /data-testid="filter-brand">brand alert: <strong>acme<\/strong>/);
    });

    it('delivers the new registrations and drops that look like the term, each saying why', async () => {
      const hook = (await api('POST', '/account/targets', { kind: 'webhook', address: receiver.url })).json().data;
      receiver.setSecret(hook.secret);
      const saved = await api('POST', '/account/filters', {
        name: 'paypal lookalikes',
        filter: 'status=new',
        brand: 'PayPal',
        target_ids: [hook.target_id],
      });
      assert.equal(saved.statusCode, 201, saved.body);
      assert.equal(saved.json().data.brand, 'paypal');
      const drops = await api('POST', '/account/filters', {
        name: 'paypal drops',
        filter: 'tld=com',
        brand: 'paypal',
        target_ids: [hook.target_id],
      });
      assert.equal(drops.statusCode, 201, drops.body);
      const listed = (await api('GET', '/account/filters')).json().data;
      assert.deepEqual(listed.map((view: { name: string; brand: string | null }) => [view.name, view.brand]).sort(), [
        ['paypal drops', 'paypal'],
        ['paypal lookalikes', 'paypal'],
      ]);

      t.clock.advance(MINUTE);
      const at = t.clock.now();
      const idn = `${domainToASCII('p\u0430ypal')}.com`;
      await t.app.ctx.database.db
        .insertInto('feed_domains')
        .values([
          newRegistration('paypal.net', at),
          newRegistration(idn, at),
          newRegistration('payapl.com', at),
          newRegistration('pay-pal.com', at),
          newRegistration('paypal24.net', at),
          newRegistration('paypak.com', at),
          newRegistration('paypal-login.com', at),
          newRegistration('ppyapal.com', at), // two edits: no
          newRegistration('weather.com', at),
          feedRow('paypa1.com', { updated_at: at }), // a drop: only the drops filter
          feedRow('paypal-old.net', { updated_at: at }), // a drop under net: not tld=com
        ])
        .execute();
      const run = await t.app.ctx.delivery.run();
      assert.equal(run.sent.dead, 0);
      const byFilter = new Map<string, Record<string, unknown>>();
      for (const entry of receiver.received) {
        if (entry.body.type !== 'filter.batch') continue;
        const rows = entry.body.data.rows as Array<{ domain: string; match: unknown }>;
        for (const row of rows) byFilter.set(`${entry.body.data.filter_name}|${row.domain}`, row.match as never);
      }
      const kinds = Object.fromEntries(
        [...byFilter].map(([name, match]) => [name, (match as { kind: string; brand: string }).kind]),
      );
      assert.deepEqual(kinds, {
        'paypal lookalikes|paypal.net': 'exact',
        [`paypal lookalikes|${idn}`]: 'homoglyph',
        'paypal lookalikes|payapl.com': 'transposition',
        'paypal lookalikes|pay-pal.com': 'hyphen_inserted',
        'paypal lookalikes|paypal24.net': 'digit_inserted',
        'paypal lookalikes|paypak.com': 'one_edit',
        'paypal lookalikes|paypal-login.com': 'contains',
        'paypal drops|paypa1.com': 'homoglyph',
      });
      assert.deepEqual(byFilter.get(`paypal lookalikes|${idn}`), {
        brand: 'paypal',
        kind: 'homoglyph',
        label: 'p\u0430ypal',
      });

      // The dashboard's log has the batches; a second run delivers nothing again.
      await t.app.ctx.delivery.run();
      assert.equal(receiver.uniqueRows().length, 8);
    });
  });
}
