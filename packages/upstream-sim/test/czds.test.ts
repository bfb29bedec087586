import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { startUpstreamSim, type UpstreamSim } from '../src/index.ts';

describe('CZDS simulator', () => {
  let sim: UpstreamSim;
  let token: string;

  before(async () => {
    sim = await startUpstreamSim();
    sim.world.setNow('2026-03-10T06:00:00Z');
    sim.world.register('alpha.com', { nameservers: ['ns1.alpha.com', 'ns2.hoster.net'] });
    sim.world.register('beta.com');
    sim.world.register('gone.com', { inZone: false, status: ['redemption period'] });
    sim.world.register('other.net');
  });
  after(() => sim.close());

  const authenticate = (body: unknown) =>
    fetch(`${sim.url}/czds-auth/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(path.startsWith('http') ? path : `${sim.url}${path}`, {
      headers: { authorization: `Bearer ${token}`, ...headers },
    });

  it('issues a token for the right credentials and 401 for wrong ones', async () => {
    const refused = await authenticate({ username: sim.czds.username, password: 'wrong' });
    assert.equal(refused.status, 401);
    const accepted = await authenticate({ username: sim.czds.username, password: sim.czds.password });
    assert.equal(accepted.status, 200);
    token = ((await accepted.json()) as { accessToken: string }).accessToken;
    assert.ok(token.length > 20);
  });

  it('lists absolute download links for the approved zones, only with a token', async () => {
    assert.equal((await fetch(`${sim.url}/czds/downloads/links`)).status, 401);
    const links = (await (await get('/czds/downloads/links')).json()) as string[];
    assert.equal(links.length, 10);
    assert.ok(links.includes(`${sim.url}/czds/downloads/com.zone`));
  });

  it('serves a gzip master file of the delegated names, with noise, and Range requests', async () => {
    assert.equal((await fetch(`${sim.url}/czds/downloads/com.zone`)).status, 401);
    const response = await get('/czds/downloads/com.zone');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/x-gzip');
    const body = Buffer.from(await response.arrayBuffer());
    assert.equal(Number(response.headers.get('content-length')), body.length);
    const text = gunzipSync(body).toString();
    assert.match(text, /\$ORIGIN com\./);
    assert.match(text, /IN\tSOA\ta\.nic\.com\./);
    assert.match(text, /^ns1\.alpha\.com\.\s+(in|IN)\s+A\s/m, 'in-bailiwick glue');
    assert.match(text.toLowerCase(), /alpha(\.com\.)?\s+(\d+ )?in\s+ns\s+ns2\.hoster\.net\./);
    assert.doesNotMatch(text.toLowerCase(), /gone/, 'a name out of the zone is not published');
    assert.doesNotMatch(text, /other\.net/);

    const tail = await get('/czds/downloads/com.zone', { range: 'bytes=10-' });
    assert.equal(tail.status, 206);
    assert.equal(tail.headers.get('content-range'), `bytes 10-${body.length - 1}/${body.length}`);
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), body.subarray(10));
    const beyond = await get('/czds/downloads/com.zone', { range: `bytes=${body.length}-` });
    assert.equal(beyond.status, 416);
    assert.equal((await get('/czds/downloads/nope.zone')).status, 404);
  });

  it('publishes once a day: the file changes only when the world moves to the next day', async () => {
    const first = Buffer.from(await (await get('/czds/downloads/com.zone')).arrayBuffer());
    sim.world.register('late.com');
    const sameDay = Buffer.from(await (await get('/czds/downloads/com.zone')).arrayBuffer());
    assert.deepEqual(sameDay, first);
    sim.world.advance(86_400_000);
    const nextDay = gunzipSync(Buffer.from(await (await get('/czds/downloads/com.zone')).arrayBuffer())).toString();
    assert.match(nextDay.toLowerCase(), /late/);
  });

  it('refuses expired tokens', async () => {
    sim.czds.expireTokens();
    assert.equal((await get('/czds/downloads/links')).status, 401);
  });
});
