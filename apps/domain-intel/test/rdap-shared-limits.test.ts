import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { redisTarget } from '@repo/server-kit/testing';

const run = promisify(execFile);
const RATE = 5;
const PROCESSES = 3;
const PER_PROCESS = 20;

describe('per-registry RDAP limits shared through Redis', { skip: redisTarget().skip }, () => {
  it('three processes together stay under one registry rate limit', async () => {
    // A loopback RDAP server that notes when each request arrived.
    const arrivals: number[] = [];
    const server = createServer((request, response) => {
      arrivals.push(Date.now());
      response.writeHead(200, { 'content-type': 'application/rdap+json' });
      response.end(JSON.stringify({ objectClassName: 'domain', ldhName: request.url?.split('/').pop() }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const redis = redisTarget().provision();
    try {
      const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const script = path.join(import.meta.dirname, 'processes', 'rdap-burst.ts');
      const results = await Promise.all(
        Array.from({ length: PROCESSES }, () =>
          run(process.execPath, ['--import', 'tsx', script], {
            env: {
              PATH: process.env.PATH,
              REDIS_URL: process.env.REDIS_URL,
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
      server.close();
      await redis.cleanup();
    }
  });
});
