import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { changes } from './feed-helpers.ts';
import { createTestApp, injectAs, type TestApp } from './helpers.ts';
import { startReceiver } from './webhook-receiver.ts';

const MINUTE = 60_000;

/**
 * The new-registrations feed end to end: the zone diff's additions become `new` rows (a name that
 * left and came back does not), /v1/domains?status=new lists them with first_seen through the
 * same filters, sorts and paging as the drop feed (SQL and the in-memory index), saved filters
 * deliver them and the export streams them, and they are deleted after their retention.
 */
for (const target of databaseTargets()) {
  for (const index of ['off', 'memory'] as const) {
    describe(`new registrations (${target.name}, feed index ${index})`, { skip: target.skip }, () => {
      let t: TestApp;
      let key: string;
      let receiver: Awaited<ReturnType<typeof startReceiver>>;

      before(async () => {
        receiver = await startReceiver();
        t = await createTestApp({
          target,
          env: {
            FEED_INDEX: index,
            RDAP_ALLOW_INSECURE: '1',
            TRACKED_TLDS: 'com,net',
            NEW_REGISTRATION_RETENTION_DAYS: '30',
          },
        });
        key = await t.keyFor('enterprise');
      });
      after(async () => {
        await t.close();
        await receiver.close();
      });

      const api = (method: 'GET' | 'POST', url: string, payload?: object) => injectAs(t, key, method, url, payload);
      const list = async (query: string) => {
        await t.app.ctx.feed.invalidate();
        const response = await api('GET', `/v1/domains?${query}`);
        assert.equal(response.statusCode, 200, response.body);
        return response.json() as {
          data: { domain: string; status: string; first_seen: string | null }[];
          meta: { total: number };
        };
      };
      const row = (domain: string) =>
        t.app.ctx.database.db.selectFrom('feed_domains').selectAll().where('domain', '=', domain).executeTakeFirst();
      const diff = (tld: string, fromDate: string, toDate: string, ...lines: [string, 'added' | 'removed'][]) =>
        t.app.ctx.lifecycle.applyZoneDiff({ tld, fromDate, toDate, changes: changes(...lines) });

      it('records names that entered the zone as new, with the date of the zone file they appeared in', async () => {
        // Day 1 → 2: holdback.com leaves the zone (a registrar hold).
        await diff('com', '2026-03-08', '2026-03-09', ['holdback.com', 'removed']);
        // Day 2 → 3: two names enter, and holdback.com comes back.
        const result = await diff(
          'com',
          '2026-03-09',
          '2026-03-10',
          ['brandnew.com', 'added'],
          ['holdback.com', 'added'],
          ['shop-24.com', 'added'],
        );
        assert.equal(result.registered, 2);
        assert.equal(result.added, 3);
        await diff('net', '2026-03-09', '2026-03-10', ['fresh.net', 'added']);

        assert.equal((await row('holdback.com'))?.status, 'returned', 'back from a hold: not new');
        const fresh = await row('brandnew.com');
        assert.equal(fresh?.status, 'new');
        assert.equal(fresh?.zone_date, '2026-03-10');
        assert.equal(fresh?.next_check_at, null, 'nothing for RDAP to check');
        assert.equal(fresh?.enrich_due_at, null);
        const history = await t.app.ctx.lifecycle.history('holdback.com');
        assert.deepEqual(
          history.map((step) => [step.from, step.to]),
          [
            ['in-zone', 'left-zone'],
            ['left-zone', 'returned'],
          ],
        );

        // Applying the same day again changes nothing.
        const again = await diff('com', '2026-03-09', '2026-03-10', ['brandnew.com', 'added']);
        assert.equal(again.status, 'already_applied');
      });

      it('lists them with status=new, with first_seen, through the feed filters, sorts and paging', async () => {
        const page = await list('status=new');
        assert.deepEqual(
          page.data.map((record) => [record.domain, record.status, record.first_seen]),
          [
            ['brandnew.com', 'new', '2026-03-10'],
            ['fresh.net', 'new', '2026-03-10'],
            ['shop-24.com', 'new', '2026-03-10'],
          ],
        );
        assert.equal(page.meta.total, 3);
        assert.deepEqual(
          (await list('status=new&tld=com&hyphens=false')).data.map((record) => record.domain),
          ['brandnew.com'],
        );
        assert.deepEqual(
          (await list('status=new&contains=shop&sort=da&limit=1&offset=0')).data.map((record) => record.domain),
          ['shop-24.com'],
        );
        assert.deepEqual(
          (await list('status=new&limit=1&offset=1')).data.map((record) => record.domain),
          ['fresh.net'],
        );
        // Not part of the drop feed: neither the default nor status=any lists them.
        assert.equal((await list('status=any')).data.filter((record) => record.status === 'new').length, 0);
        assert.equal((await list('')).meta.total, 0);
        // The drop-only filters find none of them (no drop time, no expected drop).
        assert.equal((await list('status=new&dropped_after=2026-01-01')).meta.total, 0);
        const refused = await api('GET', '/v1/domains?status=new&drops_after=2026-03-01');
        assert.equal(refused.json().error.code, 'drops_filter_needs_pending_delete');
      });

      it('exports them (NDJSON and CSV with first_seen) and delivers them to a saved filter with status=new', async () => {
        const ndjson = await api('GET', '/v1/domains/export?status=new&tld=net');
        assert.equal(ndjson.statusCode, 200, ndjson.body);
        const exported = ndjson.body
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        assert.deepEqual(
          exported.map((record) => [record.domain, record.first_seen]),
          [['fresh.net', '2026-03-10']],
        );
        const csv = (await api('GET', '/v1/domains/export?status=new&format=csv&tld=net')).body.trim().split('\n');
        assert.match(csv[0]!, /,expected_drop_at,first_seen,expected_drop_earliest,expected_drop_latest$/);
        assert.match(csv[1]!, /^fresh\.net,net,new,.*,2026-03-10,,$/);

        const hook = (await api('POST', '/account/targets', { kind: 'webhook', address: receiver.url })).json().data;
        receiver.setSecret(hook.secret);
        const saved = await api('POST', '/account/filters', {
          name: 'new .net',
          filter: 'status=new&tld=net',
          target_ids: [hook.target_id],
        });
        assert.equal(saved.statusCode, 201, saved.body);
        t.clock.advance(MINUTE);
        await diff('net', '2026-03-10', '2026-03-11', ['later.net', 'added']);
        await t.app.ctx.delivery.run();
        const rows = receiver.uniqueRows();
        assert.ok(rows.includes('later.net'), rows.join());
        assert.ok(
          rows.every((domain) => domain.endsWith('.net')),
          rows.join(),
        );
        const batch = receiver.received.find((entry) => entry.body.type === 'filter.batch');
        const delivered = batch!.body.data.rows.find((record) => record.domain === 'later.net') as unknown as {
          status: string;
          first_seen: string | null;
        };
        assert.equal(delivered.status, 'new');
        assert.equal(delivered.first_seen, '2026-03-11');
      });

      it('moves a new name that leaves the zone onto the drop path, and deletes new rows past the retention', async () => {
        await diff('com', '2026-03-10', '2026-03-11', ['shop-24.com', 'removed']);
        const left = await row('shop-24.com');
        assert.equal(left?.status, 'left-zone');
        assert.equal((await list('status=new&tld=com')).meta.total, 1);

        // 30 days after 2026-03-10 the day's names are still kept; a day later they are gone.
        const kept = await diff('com', '2026-04-08', '2026-04-09', ['late.com', 'added']);
        assert.equal(kept.expired, 0);
        const expired = await diff('com', '2026-04-10', '2026-04-11');
        assert.equal(expired.expired, 1);
        assert.equal(await row('brandnew.com'), undefined);
        assert.equal((await row('late.com'))?.status, 'new');
        assert.equal((await row('shop-24.com'))?.status, 'left-zone', 'only new rows expire');
        assert.equal((await row('fresh.net'))?.status, 'new', 'per TLD: .net has had no day since');
      });
    });
  }
}
