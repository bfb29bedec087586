import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  at: number;
  name: string;
  status: number;
}

/**
 * A loopback RDAP registry that notes each request's arrival, name and answer: `statusOf(n)` for
 * the n-th request (200 by default; a 429 carries `Retry-After: retryAfterSeconds`). `hold(n)`
 * keeps the n-th request's answer back until it resolves (to have requests in flight together).
 */
export async function startRegistry(
  statusOf: (arrival: number) => number = () => 200,
  { retryAfterSeconds = 2, hold }: { retryAfterSeconds?: number; hold?: (arrival: number) => Promise<void> } = {},
) {
  const arrivals: Arrival[] = [];
  const server = createServer((request, response) => {
    const name = request.url?.split('/').pop() ?? '';
    const arrival = arrivals.length;
    const status = statusOf(arrival);
    arrivals.push({ at: Date.now(), name, status });
    void (hold?.(arrival) ?? Promise.resolve()).then(() => {
      if (status === 429) {
        response.writeHead(429, { 'retry-after': String(retryAfterSeconds) });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/rdap+json' });
      response.end(JSON.stringify({ objectClassName: 'domain', ldhName: name }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, close: () => server.close() };
}

/**
 * A registry's undisclosed limit as a token bucket: `perSecond` tokens a second, at most that many
 * saved; a request finding no token is refused (429). Real registries publish no RDAP limit.
 */
export function secretRate(perSecond: number): { statusOf: () => number; lift(): void } {
  let tokens = perSecond;
  let refilledAt = Date.now();
  let lifted = false;
  return {
    statusOf() {
      if (lifted) return 200;
      const now = Date.now();
      tokens = Math.min(perSecond, tokens + ((now - refilledAt) / 1000) * perSecond);
      refilledAt = now;
      if (tokens < 1) return 429;
      tokens -= 1;
      return 200;
    },
    lift() {
      lifted = true;
    },
  };
}
