import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';

const taken = new Set<number>();

/**
 * A loopback port that is free now (and its +10000 partner, a Redis Cluster node's bus port),
 * from 20000–29999: below the kernel's ephemeral range, so no outgoing connection takes it
 * before the process that was given it listens. Never the same port twice in one run.
 */
export async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const port = 20_000 + (randomBytes(2).readUInt16BE(0) % 10_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await canListen(port)) && (await canListen(port + 10_000))) {
      taken.add(port);
      taken.add(port + 10_000);
      return port;
    }
  }
  throw new Error('No free loopback port');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
