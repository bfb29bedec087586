import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { connectRedis, createRedis } from '@repo/server-kit';
import { redisTarget, redisTargets } from '@repo/server-kit/testing';
import type { Redis } from 'ioredis';
import { HostRates } from '../src/rdap/host-rates.ts';
import { startRegistry } from './loopback-registry.ts';
import { sharedRdapHttp } from './shared-rdap-http.ts';

const run = promisify(execFile);
const RATE = 5;
const PROCESSES = 3;
const PER_PROCESS = 20;

for (const kind of redisTargets()) {
  describe(`per-registry RDAP limits shared through Redis (${kind.name})`, { skip: kind.skip }, () => {
    it('three processes together stay under one registry rate limit', async () => {
      const registry = await startRegistry();
      const redis = await kind.provision();
      try {
        const target = `http://${registry.host}`;
        const script = path.join(import.meta.dirname, 'processes', 'rdap-burst.ts');
        const results = await Promise.all(
          Array.from({ length: PROCESSES }, () =>
            run(process.execPath, ['--import', 'tsx', script], {
              env: {
                PATH: process.env.PATH,
                ...redis.env,
                KEY_PREFIX: redis.keyPrefix,
                TARGET: target,
                RATE: String(RATE),
                COUNT: String(PER_PROCESS),
              },
            }),
          ),
        );
        const answered = results.map(({ stdout }) => (JSON.parse(stdout) as { ok: number }).ok);
        assert.deepEqual(answered, Array(PROCESSES).fill(PER_PROCESS), 'every lookup was answered');
        const arrivals = registry.arrivals.map(({ at }) => at);
        assert.equal(arrivals.length, PROCESSES * PER_PROCESS);

        // Requests counted in every one-second window starting at an arrival (sliding windows).
        // The shared limit is a fixed one-second window in Redis, so a sliding window may hold
        // the end of one Redis window and the start of the next: at most 2 × RATE (that is the
        // slack). Unshared, the three processes would each send RATE a second: 3 × RATE.
        arrivals.sort((a, b) => a - b);
        let busiest = 0;
        for (let first = 0, last = 0; first < arrivals.length; first++) {
          while (last < arrivals.length && arrivals[last]! < arrivals[first]! + 1000) last++;
          busiest = Math.max(busiest, last - first);
        }
        assert.ok(busiest <= 2 * RATE, `at most ${2 * RATE} requests in any second, saw ${busiest}`);
        // And over the whole run: one window's worth per started second, plus the first window.
        const seconds = Math.ceil((arrivals.at(-1)! - arrivals[0]!) / 1000);
        assert.ok(arrivals.length <= RATE * (seconds + 1), `${arrivals.length} requests in ${seconds} s`);
      } finally {
        registry.close();
        await redis.cleanup();
      }
    });
  });
}

/** An RdapHttp as a process builds it (one retry, waits as the registry asks), its limits shared through `redis`. */
const sharedHttp = (redis: Redis, rates: HostRates) =>
  sharedRdapHttp(redis, rates, { maxRetries: 1, maxRetryWaitMs: 10_000 }).http;

describe('a registry 429 under per-host rates', { skip: redisTarget().skip }, () => {
  it('pauses the host for every process sharing Redis for its Retry-After, and the first one retries after it', async () => {
    // The registry answers its first request 429 with Retry-After: 2, then answers.
    const { host, arrivals, close } = await startRegistry((arrival) => (arrival === 0 ? 429 : 200));
    const provisioned = redisTarget().provision();
    const redis = await connectRedis(createRedis({ url: process.env.REDIS_URL!, keyPrefix: provisioned.keyPrefix }));
    // The registry's own rate (RDAP_HOST_RATES) is high; the 429 must still win over it.
    const rates = new HostRates(1, { [host]: 100 });
    const first = sharedHttp(redis, rates);
    const second = sharedHttp(redis, rates);
    try {
      const firstAnswer = first.getJson(`http://${host}/domain/a.com`, 20_000, 'interactive');
      // Until the 429's pause is in Redis (a window of 1 s becomes a block of 2 s).
      while (((await redis.pttl(`rdap-host:${host}`)) ?? 0) <= 1000) await sleep(10);
      const secondAnswer = await second.getJson(`http://${host}/domain/b.com`, 20_000, 'interactive');
      assert.equal(secondAnswer.kind, 'ok', 'the other process is answered once the pause is over');
      assert.equal((await firstAnswer).kind, 'ok', 'the first process retried after the Retry-After');
      const [throttled, ...later] = arrivals;
      assert.equal(throttled?.status, 429);
      assert.equal(later.length, 2);
      for (const arrival of later) {
        assert.ok(arrival.at - throttled!.at >= 1_500, `asked again ${arrival.at - throttled!.at} ms after the 429`);
      }
    } finally {
      await first.close();
      await second.close();
      redis.disconnect();
      close();
      await provisioned.cleanup();
    }
  });

  it('holds a host named in RDAP_HOST_RATES to its own rate across processes', async () => {
    const registry = await startRegistry();
    const { host } = registry;
    const provisioned = redisTarget().provision();
    const redis = await connectRedis(createRedis({ url: process.env.REDIS_URL!, keyPrefix: provisioned.keyPrefix }));
    // The default is high; the named host gets 1/s. Two processes, two requests each: held to
    // the host's own rate in Redis, the four take four windows (a span of 2 s at least); each
    // process alone would send its two within about one second.
    const rates = new HostRates(1000, { [host]: 1 });
    const processes = [sharedHttp(redis, rates), sharedHttp(redis, rates)];
    try {
      const outcomes = await Promise.all(
        processes.flatMap((http, p) =>
          [0, 1].map((i) => http.getJson(`http://${host}/domain/p${p}n${i}.com`, 30_000, 'interactive')),
        ),
      );
      assert.ok(outcomes.every((outcome) => outcome.kind === 'ok'));
      const arrivals = registry.arrivals.map(({ at }) => at);
      const span = Math.max(...arrivals) - Math.min(...arrivals);
      assert.ok(span >= 2_000, `four requests at 1/s spanned ${span} ms`);
    } finally {
      for (const http of processes) await http.close();
      redis.disconnect();
      registry.close();
      await provisioned.cleanup();
    }
  });
});
