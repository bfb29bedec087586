import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { tempDir, testTimeout } from '@repo/server-kit/testing';
import { SimWorld, startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { CzdsClient, type CzdsClientOptions, zoneOfLink } from '../src/zones/czds-client.ts';

describe('CZDS client against the simulator', () => {
  let sim: UpstreamSim;
  let temp: ReturnType<typeof tempDir>;
  let clock: ManualClock;
  const clients: CzdsClient[] = [];

  before(async () => {
    sim = await startUpstreamSim({ world: new SimWorld('2026-03-10T05:00:00Z') });
    for (let i = 0; i < 200; i++) sim.world.register(`domain${i}.com`);
  });
  after(() => sim.close());
  beforeEach(() => {
    temp = tempDir('czds-client');
    clock = new ManualClock('2026-03-10T06:00:00Z');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    temp.remove();
  });

  const client = (overrides: Partial<CzdsClientOptions> = {}) => {
    const created = new CzdsClient({
      authUrl: `${sim.url}/czds-auth`,
      apiUrl: sim.url,
      username: sim.czds.username,
      password: sim.czds.password,
      clock,
      maxRetries: 3,
      retryDelayMs: 5,
      timeoutMs: testTimeout(5_000),
      ...overrides,
    });
    clients.push(created);
    return created;
  };
  const fullFile = async () => {
    const token = await client().accessToken();
    const response = await fetch(`${sim.url}/czds/downloads/com.zone`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return Buffer.from(await response.arrayBuffer());
  };

  it('reuses its token for 24 h and authenticates again after, or when the token is revoked', async () => {
    const czds = client();
    const before = sim.czds.counts.authentications;
    await czds.downloadLinks();
    await czds.downloadLinks();
    assert.equal(sim.czds.counts.authentications, before + 1);
    sim.czds.expireTokens();
    assert.equal((await czds.downloadLinks()).length, 10, 'a 401 triggers one fresh authentication');
    assert.equal(sim.czds.counts.authentications, before + 2);
    clock.advance(24 * 3_600_000);
    await czds.downloadLinks();
    assert.equal(sim.czds.counts.authentications, before + 3);
  });

  it('finds the link of a TLD', async () => {
    assert.equal(await client().linkFor('net'), `${sim.url}/czds/downloads/net.zone`);
    assert.equal(zoneOfLink('https://czds-api.icann.org/czds/downloads/xn--p1ai.zone'), 'xn--p1ai');
    await assert.rejects(client().linkFor('museum'), { code: 'czds_zone_not_approved' });
  });

  it('reports wrong, missing credentials and an unreachable host clearly', async () => {
    await assert.rejects(client({ password: 'wrong' }).downloadLinks(), { code: 'czds_auth_failed' });
    await assert.rejects(client({ username: undefined }).downloadLinks(), { code: 'czds_not_configured' });
    await assert.rejects(client({ authUrl: 'http://127.0.0.1:1', maxRetries: 0 }).accessToken(), {
      code: 'czds_unavailable',
    });
  });

  it('retries server errors and resumes a body cut mid-way, without a byte lost or doubled', async () => {
    const expected = await fullFile();
    sim.czds.failNextDownloads(
      { kind: 'status', status: 503 },
      { kind: 'interrupt', afterBytes: 64 },
      { kind: 'interrupt', afterBytes: 64 },
    );
    const destination = path.join(temp.dir, 'com.zone.gz');
    const { bytes } = await client().download(`${sim.url}/czds/downloads/com.zone`, destination);
    assert.equal(bytes, expected.length);
    assert.deepEqual(readFileSync(destination), expected);
    assert.equal(existsSync(`${destination}.part`), false);
  });

  it('resumes the part file an interrupted run left behind with a Range request', async () => {
    const expected = await fullFile();
    const destination = path.join(temp.dir, 'com.zone.gz');
    writeFileSync(`${destination}.part`, expected.subarray(0, 500));
    await client().download(`${sim.url}/czds/downloads/com.zone`, destination);
    assert.deepEqual(readFileSync(destination), expected);

    // A stale part longer than today's file: the server answers 416 and the client starts over.
    writeFileSync(`${destination}.part`, Buffer.concat([expected, expected]));
    await client().download(`${sim.url}/czds/downloads/com.zone`, destination);
    assert.deepEqual(readFileSync(destination), expected);
  });

  it('gives up with czds_unavailable when the server keeps failing, keeping no final file', async () => {
    sim.czds.failNextDownloads(...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 503 })));
    const destination = path.join(temp.dir, 'com.zone.gz');
    await assert.rejects(client().download(`${sim.url}/czds/downloads/com.zone`, destination), {
      code: 'czds_unavailable',
    });
    assert.equal(existsSync(destination), false);
  });
});
