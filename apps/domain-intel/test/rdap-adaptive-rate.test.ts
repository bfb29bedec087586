import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectRedis, createRedis, ManualClock } from '@repo/server-kit';
import { redisTarget, redisTargets } from '@repo/server-kit/testing';
import {
  type AdaptiveRateSettings,
  type AdaptiveRateStore,
  MemoryAdaptiveRateStore,
} from '../src/rdap/adaptive-rate-state.ts';
import { AdaptiveRates, RATE_READ_TTL_MS, type RateChangeLog } from '../src/rdap/adaptive-rates.ts';
import { HostLimits } from '../src/rdap/host-limits.ts';
import { HostRates } from '../src/rdap/host-rates.ts';
import { RedisAdaptiveRateStore } from '../src/rdap/redis-adaptive-rate-store.ts';
import type { RdapTraffic } from '../src/rdap/types.ts';
import { secretRate, startRegistry } from './loopback-registry.ts';
import { inProcessRdapHttp, sharedRdapHttp, type TestRdapHttpOptions } from './shared-rdap-http.ts';

const MINUTE = 60_000;
const SETTINGS: AdaptiveRateSettings = { decreaseFactor: 0.5, minPerSecond: 2, recoveryMs: MINUTE };

/** Log lines of rate changes, as the engine writes them. */
function changeLog() {
  const lines: { level: 'info' | 'warn'; fields: Record<string, unknown> }[] = [];
  const log: RateChangeLog = {
    info: (fields) => lines.push({ level: 'info', fields }),
    warn: (fields) => lines.push({ level: 'warn', fields }),
  };
  return { lines, log };
}

/** Two processes (an RdapHttp and a Redis connection each) sharing one Redis prefix. */
async function twoProcesses(rates: HostRates, options: TestRdapHttpOptions) {
  const provisioned = redisTarget().provision();
  const connect = () => connectRedis(createRedis({ url: process.env.REDIS_URL!, keyPrefix: provisioned.keyPrefix }));
  const connections = [await connect(), await connect()] as const;
  const [first, second] = connections.map((redis) => sharedRdapHttp(redis, rates, options));
  return {
    first: first!,
    second: second!,
    async close() {
      for (const { http } of [first!, second!]) await http.close();
      for (const redis of connections) redis.disconnect();
      await provisioned.cleanup();
    },
  };
}

/** The AIMD rules, step by step: the same for the in-process store and the Redis script. */
async function playRules(store: AdaptiveRateStore) {
  const host = 'rdap.example';
  const at = (now: number, throttledAtGeneration?: number) =>
    store.apply(host, {
      now,
      configuredPerSecond: 10,
      ...(throttledAtGeneration === undefined ? {} : { throttledAtGeneration }),
    });
  assert.deepEqual((await at(1_000)).after, { perSecond: 10, generation: 0, quietSince: 0 }, 'never slowed');
  assert.deepEqual(await store.hosts(), [], 'nothing stored for a host at its configured rate');
  assert.deepEqual(await at(2_000, 0), { before: 10, after: { perSecond: 5, generation: 1, quietSince: 2_000 } });
  // A 429 to a request started before that decrease belongs to the same event: no second halving.
  assert.deepEqual((await at(2_100, 0)).after, { perSecond: 5, generation: 1, quietSince: 2_100 });
  assert.deepEqual((await at(2_200, 1)).after, { perSecond: 2, generation: 2, quietSince: 2_200 }, 'floor(2.5)');
  assert.deepEqual((await at(2_300, 2)).after.perSecond, 2, 'never below the floor');
  assert.deepEqual(await store.hosts(), [host]);
  // A step (a tenth of 10/s) per minute without a 429, counted from the last 429.
  assert.equal((await at(2_300 + MINUTE - 1)).after.perSecond, 2);
  assert.deepEqual(await at(2_300 + MINUTE), { before: 2, after: { perSecond: 3, generation: 3, quietSince: 62_300 } });
  assert.equal((await at(2_300 + 3 * MINUTE + 10)).after.perSecond, 5, 'steps that fell due while idle, at once');
  assert.equal((await at(2_300 + 60 * MINUTE)).after.perSecond, 10, 'never above the configured rate');
  // A lower configured rate (changed configuration) caps a stored one.
  const capped = await store.apply(host, {
    now: 2_300 + 61 * MINUTE,
    configuredPerSecond: 4,
    throttledAtGeneration: 3,
  });
  assert.deepEqual(capped.after, { perSecond: 2, generation: 4, quietSince: 2_300 + 61 * MINUTE });
}

describe('adaptive RDAP rate: the rules', () => {
  it('in this process: halves once per 429 event, to a floor, and climbs back a step per quiet minute', async () => {
    await playRules(new MemoryAdaptiveRateStore(SETTINGS));
  });

  for (const kind of redisTargets()) {
    it(`in Redis: the same, in one script every process shares (${kind.name})`, { skip: kind.skip }, async () => {
      const provisioned = await kind.provision();
      const redis = await connectRedis(
        createRedis({
          url: provisioned.env.REDIS_URL,
          clusterUrls: provisioned.env.REDIS_CLUSTER_URLS?.split(','),
          keyPrefix: provisioned.keyPrefix,
        }),
      );
      try {
        await playRules(new RedisAdaptiveRateStore(redis, SETTINGS));
      } finally {
        redis.disconnect();
        await provisioned.cleanup();
      }
    });
  }
});

describe("adaptive RDAP rate: each process's copy of the shared rate", () => {
  it('is read from the store once per RATE_READ_TTL_MS; a 429 here replaces it at once, one elsewhere arrives by then', async () => {
    const host = 'rdap.example';
    const shared = new MemoryAdaptiveRateStore(SETTINGS);
    let reads = 0;
    const store: AdaptiveRateStore = {
      apply: (name, event) => {
        reads += 1;
        return shared.apply(name, event);
      },
      hosts: () => shared.hosts(),
    };
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    const rates = new HostRates(10);
    const here = new AdaptiveRates({ store, rates, clock });
    const elsewhere = new AdaptiveRates({ store: shared, rates, clock });
    await Promise.all([here.current(host), here.current(host), here.current(host)]);
    assert.equal(reads, 1, 'concurrent reads share one call');
    clock.advance(RATE_READ_TTL_MS - 1);
    assert.equal((await here.current(host)).perSecond, 10);
    assert.equal(reads, 1, 'reused within the TTL');
    await elsewhere.throttled(host, 0);
    assert.equal((await here.current(host)).perSecond, 10, "another process's decrease: not yet seen");
    clock.advance(1);
    assert.equal((await here.current(host)).perSecond, 5, 'seen once the copy is RATE_READ_TTL_MS old');
    assert.equal(reads, 2);
    await here.throttled(host, 1);
    assert.equal((await here.current(host)).perSecond, 2, "this process's 429: at once");
    assert.equal(reads, 3, 'the 429 itself, no read after it');
  });
});

describe('adaptive RDAP rate against a registry with a secret limit', () => {
  it('converges below the limit with few 429s, then climbs back once the registry stops refusing', async () => {
    // The registry takes 10/s (a token bucket) and says so only with 429s; we are configured at 64/s.
    const secret = secretRate(10);
    const registry = await startRegistry(secret.statusOf, { retryAfterSeconds: 1 });
    const rates = new HostRates(64);
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    const { lines, log } = changeLog();
    const { http, adaptive } = inProcessRdapHttp(rates, {
      maxRetries: 5,
      maxRetryWaitMs: 5_000,
      hostConcurrency: 4,
      adaptive: { decreaseFactor: 0.5, minPerSecond: 1, recoveryMs: MINUTE },
      clock,
      log,
    });
    const host = registry.host;
    const lookups = (prefix: string, count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          http.getJson(`http://${host}/domain/${prefix}${i}.com`, 60_000, 'background'),
        ),
      );
    try {
      const outcomes = await lookups('burst', 60);
      assert.ok(
        outcomes.every((outcome) => outcome.kind === 'ok'),
        'every lookup answered in the end',
      );
      const { perSecond } = await adaptive.current(host);
      assert.ok(perSecond < 10, `the effective rate ${perSecond}/s is below the registry's 10/s`);
      const refused = registry.arrivals.filter(({ status }) => status === 429).length;
      // 64 → 32 → 16 → 8: three events, each refused at most the requests in flight (4).
      assert.ok(refused <= 16, `${refused} 429s for 60 lookups`);
      const last = registry.arrivals.slice(-20);
      assert.ok(
        last.every(({ status }) => status === 200),
        'none refused once the rate settled',
      );
      const decreases = lines.filter((line) => line.level === 'warn');
      assert.ok(decreases.length >= 3, '64/s halves at least three times to get under 10/s');
      assert.deepEqual(decreases.at(-1)?.fields.to_per_second, perSecond, 'one line per change');

      // The registry stops refusing: a step of 6/s (a tenth of 64) per minute without a 429.
      secret.lift();
      clock.advance(MINUTE);
      assert.equal((await adaptive.current(host)).perSecond, perSecond + 6);
      assert.deepEqual(lines.at(-1), {
        level: 'info',
        fields: { host, from_per_second: perSecond, to_per_second: perSecond + 6, configured_per_second: 64 },
      });
      clock.advance(60 * MINUTE);
      assert.equal((await adaptive.current(host)).perSecond, 64, 'back to the configured rate, never above');
      const after = await lookups('after', 20);
      assert.ok(after.every((outcome) => outcome.kind === 'ok'));
      assert.equal(lines.length, decreases.length + 2, 'one line per change, none for unchanged reads');
    } finally {
      await http.close();
      registry.close();
    }
  });
});

describe('adaptive RDAP rate shared through Redis', { skip: redisTarget().skip }, () => {
  it('two processes share one slowed rate: 429s of one event, in both, lower it once', async () => {
    // The first two requests (one from each process) are answered together, both 429.
    let bothArrived!: () => void;
    const together = new Promise<void>((resolve) => {
      bothArrived = resolve;
    });
    const registry = await startRegistry((arrival) => (arrival < 2 ? 429 : 200), {
      retryAfterSeconds: 1,
      hold: (arrival) => {
        if (arrival === 1) bothArrived();
        return arrival < 2 ? together : Promise.resolve();
      },
    });
    const { lines, log } = changeLog();
    const processes = await twoProcesses(new HostRates(10), {
      maxRetries: 1,
      maxRetryWaitMs: 5_000,
      interactiveShare: 0.2,
      log,
    });
    const { first: a, second: b } = processes;
    const { host } = registry;
    try {
      const [fromA, fromB] = await Promise.all([
        a.http.getJson(`http://${host}/domain/a.com`, 20_000, 'background'),
        b.http.getJson(`http://${host}/domain/b.com`, 20_000, 'interactive'),
      ]);
      assert.equal(fromA.kind, 'ok', 'retried after the Retry-After');
      assert.equal(fromB.kind, 'ok');
      assert.deepEqual(
        registry.arrivals.map(({ status }) => status),
        [429, 429, 200, 200],
      );
      assert.equal((await a.adaptive.current(host)).perSecond, 5, 'halved once, not twice');
      assert.equal((await b.adaptive.current(host)).perSecond, 5, 'the other process runs at the same rate');
      assert.equal(lines.length, 1, 'one line for the change, from the process that made it');
      // What the purge plan counts on there: the slowed rate less the interactive share.
      assert.equal(await b.limits.backgroundPerSecond(host), 4);
      assert.deepEqual(await b.adaptive.effectiveRates(), [{ host, perSecond: 5, configuredPerSecond: 10 }]);
    } finally {
      await processes.close();
      registry.close();
    }
  });
});

/** Lets every promise chain that can move without a timer move (mocked timers stay put). */
async function settle() {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the interactive share of a registry rate', () => {
  it('in each window a background run takes only its share, interactive lookups the rest at once', async (t) => {
    // The limiter's windows follow Date and setTimeout: mocked, a window ends only when the test says.
    t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.parse('2026-03-10T12:00:00Z') });
    const clock = { now: () => Date.now() };
    const host = 'rdap.example';
    // 5/s, 40 % kept for interactive lookups: a background run may take 3 of each second's 5.
    const adaptive = new AdaptiveRates({
      store: new MemoryAdaptiveRateStore(SETTINGS),
      rates: new HostRates(5),
      clock,
    });
    const limits = HostLimits.inProcess(adaptive, 0.4);
    const granted: string[] = [];
    const lookup = async (name: string, traffic: RdapTraffic) => {
      const deadline = Date.now() + 60_000;
      await limits.admit(host, traffic, deadline);
      await limits.acquire(host, traffic, deadline);
      granted.push(name);
    };
    const run = Array.from({ length: 9 }, (_, i) => lookup(`run${i}`, 'background'));
    await settle();
    assert.deepEqual([...granted].sort(), ['run0', 'run1', 'run2'], "the run's share of the first second");
    // Asked after the run filled its share, in the same window: the two slots kept for them.
    const interactive = ['check0', 'check1'].map((name) => lookup(name, 'interactive'));
    await settle();
    await Promise.all(interactive);
    assert.deepEqual(granted.slice(3), ['check0', 'check1'], 'answered in the window they were asked in');
    t.mock.timers.tick(1_000);
    await settle();
    assert.deepEqual(
      granted.slice(5).sort(),
      ['run3', 'run4', 'run5'],
      'three more background lookups the next second',
    );
    t.mock.timers.tick(1_000);
    await settle();
    await Promise.all(run);
    assert.equal(granted.length, 11);
  });

  it('through Redis: interactive lookups get through while a background run saturates its share', {
    skip: redisTarget().skip,
  }, async () => {
    const registry = await startRegistry();
    // 5/s, 40 % kept for interactive lookups: a background run may take 3/s.
    const processes = await twoProcesses(new HostRates(5), { maxRetries: 0, maxRetryWaitMs: 0, interactiveShare: 0.4 });
    const { first: worker, second: api } = processes;
    const { host } = registry;
    const count = (prefix: string) => registry.arrivals.filter(({ name }) => name.startsWith(prefix)).length;
    try {
      const run = Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          worker.http.getJson(`http://${host}/domain/run${i}.com`, 60_000, 'background'),
        ),
      );
      while (count('run') < 3) await sleep(20);
      const interactive = await Promise.all(
        ['check0', 'check1'].map((name) =>
          api.http.getJson(`http://${host}/domain/${name}.com`, 60_000, 'interactive'),
        ),
      );
      assert.ok(interactive.every((outcome) => outcome.kind === 'ok'));
      const backgroundBefore = count('run');
      assert.ok(
        backgroundBefore <= 12,
        `the interactive lookups were answered after ${backgroundBefore} of 24 background ones`,
      );
      assert.ok((await run).every((outcome) => outcome.kind === 'ok'));
      // Background lookups never took more than their share: 3 in each one-second window in
      // Redis, so the run of 24 takes 8 windows, its first and last arrivals at least 6 s apart
      // (a lower bound: a loaded machine only stretches it).
      const runArrivals = registry.arrivals.filter(({ name }) => name.startsWith('run')).map(({ at }) => at);
      const span = Math.max(...runArrivals) - Math.min(...runArrivals);
      assert.ok(span >= 6_000, `24 background lookups at 3/s spanned ${span} ms`);
    } finally {
      await processes.close();
      registry.close();
    }
  });
});
