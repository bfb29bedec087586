import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, redisTarget, testTimeout } from '@repo/server-kit/testing';
import { DashboardBrowser } from './dashboard-session.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

/** The app's log lines, parsed, as the operator would read them. */
function logCollector() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const messages = (pattern: RegExp) => lines.filter((line) => pattern.test(String(line.msg)));
  return { stream, lines, messages };
}

/** ioredis prints "[ioredis] Unhandled error event" with console.error when nobody listens to 'error'. */
function watchConsoleErrors() {
  const printed: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    printed.push(args.map(String).join(' '));
  };
  return { printed, restore: () => (console.error = original) };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// One Redis, and a Redis Cluster whose seeds are all unreachable: the same 503s either way.
for (const target of databaseTargets())
  for (const setting of ['REDIS_URL', 'REDIS_CLUSTER_URLS'] as const) {
    describe(`Redis unreachable (${target.name}, ${setting})`, { skip: target.skip }, () => {
      let t: TestApp;
      let key: string;
      let log: ReturnType<typeof logCollector>;
      let consoleErrors: ReturnType<typeof watchConsoleErrors>;

      before(async () => {
        consoleErrors = watchConsoleErrors();
        log = logCollector();
        const port = await closedPort();
        t = await createTestApp({ target, env: { [setting]: `redis://127.0.0.1:${port}` }, logStream: log.stream });
        key = await t.keyFor('starter');
      });
      after(async () => {
        consoleErrors?.restore();
        await t?.close();
      });

      it('answers keyed calls 503 service_unavailable with Retry-After, counting nothing', async () => {
        for (const url of ['/v1/quota', '/v1/check?domain=example.com', '/v1/domains']) {
          const response = await t.app.inject({ url, headers: bearer(key) });
          assert.equal(response.statusCode, 503, url);
          const body = response.json();
          assert.equal(body.error.code, 'service_unavailable');
          assert.match(body.error.message, /Redis/);
          assert.equal(body.error.request_id, response.headers['x-request-id']);
          assert.equal(response.headers['retry-after'], '5');
        }
        // A key that is wrong is still told so: the database answers before Redis is needed.
        const unknown = await t.app.inject({ url: '/v1/quota', headers: bearer(`di_live_${'2'.repeat(44)}`) });
        assert.equal(unknown.statusCode, 401);
      });

      it('refuses the dashboard sign-in (its rate limit lives in Redis) with a 503 page, not a 500', async () => {
        const browser = new DashboardBrowser(t.app);
        const email = `outage-${Date.now()}@example.com`;
        const signIn = await browser.signIn(email, await t.keyFor('free', email));
        assert.equal(signIn.statusCode, 503);
        assert.match(signIn.headers['content-type'] as string, /text\/html/);
        assert.equal(signIn.headers['retry-after'], '5');
      });

      it('refuses sign-ups (their limits live in Redis) with 503, as a page for the form and the envelope for JSON', async () => {
        const json = await t.app.inject({ method: 'POST', url: '/signup', payload: { email: 'outage@example.com' } });
        assert.equal(json.statusCode, 503);
        assert.equal(json.json().error.code, 'service_unavailable');
        assert.equal(json.headers['retry-after'], '5');
        const browser = new DashboardBrowser(t.app);
        await browser.get('/signup');
        const form = await browser.post('/signup', { email: 'outage@example.com' });
        assert.equal(form.statusCode, 503);
        assert.match(form.headers['content-type'] as string, /text\/html/);
        assert.match(form.body, /role="alert"/);
        assert.equal(await t.app.ctx.accounts.findSummary('outage@example.com'), undefined);
      });

      it('says /readyz is not ready', async () => {
        const ready = await t.app.inject('/readyz');
        assert.equal(ready.statusCode, 503);
        assert.equal(ready.json().checks.redis, 'unreachable');
      });

      it('logs the outage once, however many reconnection attempts fail, and never "Unhandled error event"', async () => {
        // ioredis retries every 50–2,000 ms: wait for several failed attempts.
        await sleep(testTimeout(1_500));
        assert.equal(log.messages(/Redis is unreachable/).length, 1);
        assert.deepEqual(
          consoleErrors.printed.filter((line) => /Unhandled error event/.test(line)),
          [],
        );
        assert.deepEqual(log.messages(/request failed/), [], 'no stack trace per refused call');
      });
    });
  }

const redis = redisTarget();
describe('Redis going away and coming back', { skip: redis.skip }, () => {
  let t: TestApp;
  let key: string;
  let log: ReturnType<typeof logCollector>;
  let proxy: net.Server;
  let proxyPort: number;
  const sockets = new Set<net.Socket>();
  const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

  /** A TCP relay to the real Redis that the test can cut and restore. */
  async function openProxy(port = 0): Promise<number> {
    proxy = net.createServer((client) => {
      const upstream = net.connect(Number(redisUrl.port || 6379), redisUrl.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    return (proxy.address() as net.AddressInfo).port;
  }
  async function cutProxy() {
    await new Promise<void>((resolve) => {
      proxy.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  }

  before(async () => {
    log = logCollector();
    proxyPort = await openProxy();
    t = await createTestApp({
      target: databaseTargets()[0]!,
      redis: true,
      env: { REDIS_URL: `redis://127.0.0.1:${proxyPort}` },
      logStream: log.stream,
    });
    key = await t.keyFor('starter');
  });
  after(async () => {
    await t?.close();
    proxy?.close();
  });

  async function waitFor(check: () => Promise<boolean>) {
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await check()) return;
      await sleep(testTimeout(100));
    }
    assert.fail('the condition never held');
  }

  it('counts while Redis is there, answers 503 while it is gone, counts again once it is back; one log line each way', async () => {
    assert.equal((await t.app.inject({ url: '/v1/quota', headers: bearer(key) })).statusCode, 200);
    await cutProxy();
    await waitFor(async () => (await t.app.inject({ url: '/v1/quota', headers: bearer(key) })).statusCode === 503);
    const during = await t.app.inject({ url: '/v1/check?domain=example.com', headers: bearer(key) });
    assert.equal(during.statusCode, 503);
    assert.equal(during.json().error.code, 'service_unavailable');
    await sleep(testTimeout(1_000));
    await openProxy(proxyPort);
    await waitFor(async () => (await t.app.inject({ url: '/v1/quota', headers: bearer(key) })).statusCode === 200);
    assert.equal(log.messages(/Redis is unreachable/).length, 1);
    assert.equal(log.messages(/Redis is reachable again/).length, 1);
  });
});
