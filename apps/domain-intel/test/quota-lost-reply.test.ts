import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseTargets, redisTarget, testTimeout } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { ok } from '../src/http/envelope.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

async function probeRoutes(v1: FastifyInstance) {
  v1.get('/test/ping', async (request) => ok(request, { pong: true }));
}

type Fault = 'none' | 'lose-next-reply' | 'lose-next-request';

/** The quota's take is a script: EVAL on a new connection, EVALSHA once it is known there. */
const SCRIPT_CALL = /\beval(sha)?\b/i;

/**
 * A TCP relay to the real Redis that can lose the next script's exchange the way a dying master
 * does: the script reaches Redis and its reply is lost (or the script itself never arrives); the
 * connection is cut and new ones are refused until `heal`, so the client's retry fails too.
 */
async function openRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let fault: Fault = 'none';
  let cutOnReply = false;
  let refusing = false;
  const cut = () => {
    fault = 'none';
    cutOnReply = false;
    refusing = true;
    for (const socket of sockets) socket.destroy();
  };
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('data', (chunk: Buffer) => {
      const script = fault !== 'none' && SCRIPT_CALL.test(chunk.toString('latin1'));
      if (script && fault === 'lose-next-request') return cut();
      if (script) cutOnReply = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      // Redis answers in order: what follows the script's sending is its reply (or comes after it).
      if (cutOnReply) cut();
      else client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    arm(next: Exclude<Fault, 'none'>) {
      fault = next;
    },
    heal() {
      refusing = false;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

const redis = redisTarget();
describe('a take whose reply Redis never sent (QUOTA_REQUEST_ID_HEADER)', { skip: redis.skip }, () => {
  const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  let relay: Awaited<ReturnType<typeof openRelay>>;
  let t: TestApp;
  let direct: Redis;
  let key: string;
  let accountId: string;

  before(async () => {
    relay = await openRelay(redisUrl);
    t = await createTestApp({
      target: databaseTargets()[0]!,
      redis: true,
      extraV1Routes: probeRoutes,
      env: {
        REDIS_URL: `redis://127.0.0.1:${relay.port}`,
        QUOTA_REQUEST_ID_HEADER: 'x-request-id',
        METRICS_PUBLIC: '1',
      },
    });
    // Redis as it is, past the relay, under the app's key prefix.
    direct = new Redis(redisUrl.toString(), { keyPrefix: t.app.ctx.redis!.options.keyPrefix });
    key = await t.keyFor('free');
    accountId = (await t.app.ctx.database.db.selectFrom('api_keys').select('account_id').executeTakeFirstOrThrow())
      .account_id;
  });
  after(async () => {
    await t?.close();
    direct?.disconnect();
    relay?.close();
  });

  const ping = (id: string) => t.app.inject({ url: '/v1/test/ping', headers: { ...bearer(key), 'x-request-id': id } });
  const counted = async () => Number(await direct.get(`quota:${accountId}:2026-03-10`));
  const marked = async (id: string) => (await direct.exists(`quota-request:${accountId}:${id}`)) === 1;
  const unanswered = () => t.app.ctx.quota.unanswered!;

  /** Settles until nothing waits; bounded by looks, as the client reconnects on its own time. */
  async function settled() {
    for (let look = 0; look < 200; look++) {
      if ((await unanswered().settle()) === 0) return;
      await sleep(testTimeout(50));
    }
    assert.fail('the lost take was never settled');
  }

  it('gives back a unit Redis counted for a call answered 503, and leaves alone one that never reached Redis', async () => {
    assert.equal((await ping('call-1')).statusCode, 200);
    assert.equal(await counted(), 1);

    // The take runs in Redis, its reply is lost: the call answers 503 while Redis counted it.
    relay.arm('lose-next-reply');
    const lost = await ping('call-2');
    assert.equal(lost.statusCode, 503);
    assert.equal(lost.json().error.code, 'service_unavailable');
    assert.equal(await counted(), 2, 'Redis ran the take');
    assert.ok(await marked('call-2'));
    assert.equal(unanswered().waiting, 1);

    relay.heal();
    await settled();
    assert.equal(await counted(), 1, 'the unit of the call answered 503 is back');
    assert.equal(await marked('call-2'), false);
    assert.equal(unanswered().refunded, 1);

    // The request never reaches Redis: nothing was counted, nothing is given back.
    relay.arm('lose-next-request');
    assert.equal((await ping('call-3')).statusCode, 503);
    relay.heal();
    await settled();
    assert.equal(await counted(), 1);
    assert.equal(unanswered().refunded, 1);

    assert.equal((await ping('call-4')).statusCode, 200);
    const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
    assert.equal(quota.json().data.used, 2, 'the two calls answered 200, each counted once');
    const metrics = (await t.app.inject('/metrics')).body;
    assert.match(metrics, /domain_intel_quota_unanswered_refunds_total 1\n/);
    assert.match(metrics, /domain_intel_quota_unanswered_takes 0\n/);
  });
});
