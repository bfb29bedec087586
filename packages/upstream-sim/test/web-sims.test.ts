import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SIM_MAJESTIC_KEY } from '../src/majestic/index.ts';
import { SIM_MOZ_TOKEN } from '../src/moz/index.ts';
import { startUpstreamSim, type UpstreamSim } from '../src/server.ts';
import { SimWorld } from '../src/world.ts';

describe('Wayback CDX, Moz and Majestic simulators', () => {
  let sim: UpstreamSim;
  before(async () => {
    const world = new SimWorld('2026-03-10T06:00:00Z');
    world.register('old.com', { firstArchivedAt: Date.parse('2020-01-15T08:30:00Z'), da: 33, tf: 12, cf: 25 });
    world.register('plain.com');
    sim = await startUpstreamSim({ world });
  });
  after(async () => sim.close());

  const get = async (path: string) => fetch(`${sim.url}${path}`);

  it('CDX: JSON with a header row, yearly captures oldest first, limit, fl, from/to, [] when empty', async () => {
    const all = await (
      await get('/wayback/cdx/search/cdx?url=http://www.old.com/&output=json&fl=timestamp,statuscode')
    ).json();
    assert.deepEqual(all[0], ['timestamp', 'statuscode']);
    assert.deepEqual(
      all.slice(1).map((row: string[]) => row[0]),
      [
        '20200115083000',
        '20210114083000',
        '20220114083000',
        '20230114083000',
        '20240114083000',
        '20250113083000',
        '20260113083000',
      ],
    );
    const first = await (await get('/wayback/cdx/search/cdx?url=old.com&output=json&limit=1')).json();
    assert.equal(first.length, 2);
    assert.equal(first[0].length, 7);
    const ranged = await (
      await get('/wayback/cdx/search/cdx?url=old.com&output=json&fl=timestamp&from=2022&to=2023')
    ).json();
    assert.deepEqual(ranged, [['timestamp'], ['20220114083000'], ['20230114083000']]);
    assert.deepEqual(await (await get('/wayback/cdx/search/cdx?url=plain.com&output=json')).json(), []);
    const text = await (await get('/wayback/cdx/search/cdx?url=old.com&fl=timestamp,original&limit=1')).text();
    assert.equal(text, '20200115083000 http://old.com/\n');
    assert.equal((await get('/wayback/cdx/search/cdx?output=json')).status, 400);
    assert.equal((await get('/wayback/cdx/search/cdx?url=old.com&fl=bogus')).status, 400);
  });

  it('Moz url_metrics: token, batch bounds, one result per target', async () => {
    const post = (body: unknown, token = SIM_MOZ_TOKEN) =>
      fetch(`${sim.url}/moz/v2/url_metrics`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-moz-token': token },
        body: JSON.stringify(body),
      });
    const answer = await (await post({ targets: ['old.com', 'plain.com'] })).json();
    assert.equal(answer.results.length, 2);
    assert.equal(answer.results[0].domain_authority, 33);
    assert.equal('domain_authority' in answer.results[1], false);
    assert.equal((await post({ targets: ['old.com'] }, 'wrong')).status, 401);
    assert.equal((await post({ targets: [] })).status, 400);
    assert.equal((await post({ targets: Array.from({ length: 51 }, (_, i) => `a${i}.com`) })).status, 400);
  });

  it('Majestic GetIndexItemInfo: key, item count, Code envelope', async () => {
    const ok = await (
      await get(
        `/majestic/api/json?app_api_key=${SIM_MAJESTIC_KEY}&cmd=GetIndexItemInfo&items=2&item0=old.com&item1=plain.com&datasource=fresh`,
      )
    ).json();
    assert.equal(ok.Code, 'OK');
    assert.deepEqual(
      ok.DataTables.Results.Data.map((row: { Item: string; TrustFlow: number; CitationFlow: number }) => [
        row.Item,
        row.TrustFlow,
        row.CitationFlow,
      ]),
      [
        ['old.com', 12, 25],
        ['plain.com', 0, 0],
      ],
    );
    const badKey = await (
      await get('/majestic/api/json?app_api_key=x&cmd=GetIndexItemInfo&items=1&item0=old.com')
    ).json();
    assert.equal(badKey.Code, 'InvalidAPIKey');
    const tooMany = await (
      await get(`/majestic/api/json?app_api_key=${SIM_MAJESTIC_KEY}&cmd=GetIndexItemInfo&items=101`)
    ).json();
    assert.equal(tooMany.Code, 'InvalidParameters');
  });
});
