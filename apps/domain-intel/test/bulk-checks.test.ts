import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { runJob } from '../src/jobs/pipeline.ts';
import { bearer, createTestApp, quotaStoreVariants, type TestApp } from './helpers.ts';
import { simRdapEnv } from './rdap-helpers.ts';

interface Item {
  domain: string;
  available: boolean | null;
  status: string;
  source: string;
  checked_at: string;
  server?: string;
  cached?: boolean;
  reason?: string;
  message?: string;
  registry_status?: string[];
}

// SQLite with the SQL quota, PostgreSQL with the Redis quota (and cache): both stores, both databases.
const variants = quotaStoreVariants(databaseTargets()).filter(
  (variant) => variant.name === 'sqlite + sql quota' || variant.name === 'postgres + redis quota',
);

for (const variant of variants) {
  describe(`/account/bulk-checks (${variant.name})`, { skip: variant.skip }, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    let starter: string;
    before(async () => {
      sim = await startUpstreamSim();
      sim.world.register('taken-bulk.com');
      sim.world.register('held-bulk.org', { status: ['server hold'] });
      t = await createTestApp({
        target: variant.target,
        redis: variant.redis,
        env: simRdapEnv(sim, { RDAP_HOST_RATE_PER_SECOND: '1000' }),
      });
      starter = await t.keyFor('starter');
    });
    after(async () => {
      await t?.close();
      await sim?.close();
    });

    const post = (payload: string | object, key = starter, contentType = 'application/json') =>
      t.app.inject({
        method: 'POST',
        url: '/account/bulk-checks',
        headers: { ...bearer(key), 'content-type': contentType },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
    const get = (url: string, key = starter, headers: Record<string, string> = {}) =>
      t.app.inject({ url, headers: { ...bearer(key), ...headers } });
    const used = async (key: string) => (await get('/v1/quota', key)).json().data.used as number;
    const ndjson = (body: string): Item[] =>
      body
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));

    it('merges duplicates, decides a malformed entry at once, counts each distinct valid name, and answers like /v1/check', async () => {
      const key = await t.keyFor('starter');
      const response = await post(
        {
          domains: ['Taken-Bulk.com', 'taken-bulk.com.', 'free-bulk.com', 'bad..name', 'bad..name', 'held-bulk.org'],
        },
        key,
      );
      assert.equal(response.statusCode, 202, response.body);
      const job = response.json().data;
      assert.match(job.id, /^bulk_/);
      assert.equal(response.headers.location, `/account/bulk-checks/${job.id}`);
      assert.deepEqual(
        { status: job.status, total: job.total, done: job.done, invalid: job.invalid, duplicates: job.duplicates },
        { status: 'queued', total: 4, done: 1, invalid: 1, duplicates: 2 },
      );
      assert.equal(await used(key), 3, 'three distinct valid names, taken when the job was accepted');

      const run = await runJob(t.app.ctx, 'bulk-checks');
      assert.equal(run.status, 'completed');
      const status = (await get(`/account/bulk-checks/${job.id}`, key)).json().data;
      assert.equal(status.status, 'done');
      assert.equal(status.done, 4);
      assert.ok(status.started_at && status.finished_at);

      const results = await get(`/account/bulk-checks/${job.id}/results`, key);
      assert.equal(results.statusCode, 200);
      assert.match(String(results.headers['content-type']), /^application\/x-ndjson/);
      const items = ndjson(results.body);
      assert.deepEqual(
        items.map((item) => [item.domain, item.status, item.available]),
        [
          ['taken-bulk.com', 'registered', false],
          ['free-bulk.com', 'available', true],
          ['bad..name', 'invalid', null],
          ['held-bulk.org', 'registered', false],
        ],
      );
      assert.equal(items[2]!.reason, 'invalid_domain', "the malformed entry's own error code");
      assert.equal(items[2]!.source, 'rules');
      assert.equal(await used(key), 3, 'the run itself counts nothing more');

      // The same record as /v1/check (whose answers now come from the shared cache: `cached` and the
      // time of the answer repeated are the only differences).
      const checked = (await get('/v1/check?domains=taken-bulk.com,free-bulk.com,held-bulk.org', key)).json().data;
      const comparable = ({ cached: _cached, ...item }: Item) => item;
      assert.deepEqual(
        checked.map(comparable),
        [items[0]!, items[1]!, items[3]!].map(comparable),
        'source, server, registry_status and checked_at as /v1/check gives them',
      );
      assert.ok(items[0]!.server, 'the registry server asked is named');
    });

    it('takes text/plain (a name per line) and text/csv (the first column, header skipped) uploads', async () => {
      const plain = await post('taken-bulk.com\r\n\r\nfree-bulk.net\n  \n', starter, 'text/plain');
      assert.equal(plain.statusCode, 202, plain.body);
      assert.equal(plain.json().data.total, 2);
      const csv = await post(
        'domain,note\n"free-bulk.org","a, quoted"\ntaken-bulk.com,x\nfree-bulk.org,again\n',
        starter,
        'text/csv',
      );
      assert.equal(csv.statusCode, 202, csv.body);
      assert.deepEqual(
        { total: csv.json().data.total, duplicates: csv.json().data.duplicates },
        { total: 2, duplicates: 1 },
      );
      await runJob(t.app.ctx, 'bulk-checks');
      const id = csv.json().data.id;
      for (const headers of [{}, { accept: 'text/csv' }] as Array<Record<string, string>>) {
        const url = `/account/bulk-checks/${id}/results${Object.keys(headers).length === 0 ? '?format=csv' : ''}`;
        const response = await get(url, starter, headers);
        assert.equal(response.statusCode, 200);
        assert.match(String(response.headers['content-type']), /^text\/csv/);
        const lines = response.body.trim().split('\n');
        assert.equal(
          lines[0],
          'domain,available,status,source,server,checked_at,cached,reason,message,registry_status',
        );
        assert.deepEqual(
          lines.slice(1).map((line) => line.split(',').slice(0, 3)),
          [
            ['free-bulk.org', 'true', 'available'],
            ['taken-bulk.com', 'false', 'registered'],
          ],
        );
      }
      const wrong = await get(`/account/bulk-checks/${id}/results?format=xml`);
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().error.code, 'invalid_format');
    });

    it('refuses bad input with catalogued codes, counting nothing', async () => {
      const key = await t.keyFor('starter');
      const names = (count: number) => Array.from({ length: count }, (_, i) => `name-${i}.com`);
      const refusals: Array<[string, Awaited<ReturnType<typeof post>>, number, string]> = [
        ['10,001 names', await post({ domains: names(10_001) }, key), 400, 'too_many_domains'],
        ['10,001 lines', await post(names(10_001).join('\n'), key, 'text/plain'), 400, 'too_many_domains'],
        ['an empty list', await post({ domains: [] }, key), 400, 'empty_domain_list'],
        ['blank lines only', await post('\n \n', key, 'text/plain'), 400, 'empty_domain_list'],
        ['no domains field', await post({ names: ['a.com'] }, key), 400, 'invalid_request'],
        ['a JSON list', await post(['a.com'], key), 400, 'invalid_request'],
        ['objects for names', await post({ domains: [{ name: 'a.com' }] }, key), 400, 'invalid_request'],
        ['neither JSON nor text', await post('PK\u0003\u0004', key, 'application/zip'), 415, 'unsupported_media_type'],
        ['broken JSON', await post('{"domains": [', key), 400, 'invalid_body'],
      ];
      for (const [what, response, status, code] of refusals) {
        assert.equal(response.statusCode, status, `${what}: ${response.body}`);
        assert.equal(response.json().error.code, code, what);
      }
      assert.equal(refusals[0]![1].json().error.details.limit, 10_000);
      assert.equal(await used(key), 0);
      const enterprise = await t.keyFor('enterprise');
      const ok = await post({ domains: names(10_000) }, enterprise);
      assert.equal(ok.statusCode, 202, 'exactly 10,000 names are taken');
      assert.equal(ok.json().data.total, 10_000);
      await t.app.inject({
        method: 'POST',
        url: `/account/bulk-checks/${ok.json().data.id}/cancel`,
        headers: bearer(enterprise),
      });
    });

    it('refuses a job bigger than the quota left whole (429, nothing counted), and plans without bulk checks (403)', async () => {
      const key = await t.keyFor('starter');
      const first = await post({ domains: Array.from({ length: 990 }, (_, i) => `quota-${i}.com`) }, key);
      assert.equal(first.statusCode, 202);
      assert.equal(await used(key), 990);
      const over = await post({ domains: Array.from({ length: 11 }, (_, i) => `over-${i}.com`) }, key);
      assert.equal(over.statusCode, 429, over.body);
      assert.equal(over.json().error.code, 'quota_exceeded');
      assert.deepEqual(
        { needed: over.json().error.details.needed, remaining: over.json().error.details.remaining },
        { needed: 11, remaining: 10 },
      );
      assert.ok(Number(over.headers['retry-after']) >= 1);
      assert.equal(await used(key), 990, 'nothing of the refused job was counted');
      const fits = await post(
        { domains: [...Array.from({ length: 10 }, (_, i) => `fit-${i}.com`), 'not a name'] },
        key,
      );
      assert.equal(fits.statusCode, 202, 'ten valid names fit; the malformed one costs nothing');
      assert.equal(await used(key), 1000);
      for (const id of [first.json().data.id, fits.json().data.id]) {
        await t.app.inject({ method: 'POST', url: `/account/bulk-checks/${id}/cancel`, headers: bearer(key) });
      }

      const free = await t.keyFor('free');
      const refused = await post({ domains: ['a.com'] }, free);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().error.code, 'plan_required');
      assert.equal(refused.json().error.details.feature, 'bulk_check');
      assert.equal(await used(free), 0);
    });

    it("cancels a queued job (its decided items stay), lists jobs newest first, and hides other accounts' jobs", async () => {
      const key = await t.keyFor('starter');
      const job = (await post({ domains: ['cancel-me.com', 'also.com', '-bad-.com'] }, key)).json().data;
      const cancel = () =>
        t.app.inject({ method: 'POST', url: `/account/bulk-checks/${job.id}/cancel`, headers: bearer(key) });
      const cancelled = await cancel();
      assert.equal(cancelled.statusCode, 200, cancelled.body);
      assert.equal(cancelled.json().data.status, 'cancelled');
      const again = await cancel();
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().error.code, 'bulk_check_finished');
      await runJob(t.app.ctx, 'bulk-checks');
      const after = (await get(`/account/bulk-checks/${job.id}`, key)).json().data;
      assert.equal(after.status, 'cancelled');
      assert.deepEqual(
        ndjson((await get(`/account/bulk-checks/${job.id}/results`, key)).body).map((item) => item.status),
        ['invalid'],
        'only the item decided before the cancel',
      );

      t.clock.advance(1_000);
      const second = (await post({ domains: ['second.com'] }, key)).json().data;
      const list = await get('/account/bulk-checks?limit=1', key);
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(
        list.json().data.map((entry: { id: string }) => entry.id),
        [second.id],
      );
      assert.deepEqual(
        { ...list.json().meta, request_id: undefined },
        { request_id: undefined, total: 2, limit: 1, offset: 0 },
      );
      assert.equal((await get('/account/bulk-checks?limit=0', key)).json().error.code, 'invalid_limit');

      const other = await t.keyFor('starter');
      for (const url of [`/account/bulk-checks/${job.id}`, `/account/bulk-checks/${job.id}/results`]) {
        const response = await get(url, other);
        assert.equal(response.statusCode, 404);
        assert.equal(response.json().error.code, 'bulk_check_not_found');
      }
      await runJob(t.app.ctx, 'bulk-checks');
    });

    it('records bulk_check.completed for the account webhooks once, with the counts', async () => {
      const key = await t.keyFor('enterprise');
      const job = (await post({ domains: ['taken-bulk.com', 'event-free.com', 'bad..one'] }, key)).json().data;
      await runJob(t.app.ctx, 'bulk-checks');
      const messages = await t.app.ctx.database.db
        .selectFrom('delivery_messages')
        .select(['type', 'payload'])
        .where('type', '=', 'bulk_check.completed')
        .execute();
      const mine = messages.map((message) => JSON.parse(message.payload)).filter((body) => body.data.id === job.id);
      assert.equal(mine.length, 1);
      assert.deepEqual(mine[0].data, {
        id: job.id,
        total: 3,
        available: 1,
        registered: 1,
        unknown: 0,
        invalid: 1,
        results_url: `/account/bulk-checks/${job.id}/results`,
      });
    });
  });
}
