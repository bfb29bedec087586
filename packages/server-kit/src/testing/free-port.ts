import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';

/** Ports handed out in this process: never the same one twice, even once its first owner has closed it. */
const handedOut = new Set<number>();

/**
 * A loopback port that is free now, for a process that will listen on it later (a child started
 * with the port in its settings, a server restarted on the same address). It comes from
 * 20000–29999, below the kernel's ephemeral range (32768–60999 on Linux), so no outgoing connection
 * and no `listen(0)` of a test running beside this one takes it in the meantime: `listen(0)` and
 * close, the usual trick, hands out exactly the ports the next connection may take.
 *
 * `partnerOffset` also asks for port + offset to be free (a Redis Cluster node's bus port is +10000).
 */
export async function freeLoopbackPort(options: { partnerOffset?: number } = {}): Promise<number> {
  const wanted = (port: number) =>
    options.partnerOffset === undefined ? [port] : [port, port + options.partnerOffset];
  for (let attempt = 0; attempt < 500; attempt++) {
    const port = 20_000 + (randomBytes(2).readUInt16BE(0) % 10_000);
    const ports = wanted(port);
    if (ports.some((candidate) => handedOut.has(candidate))) continue;
    if ((await Promise.all(ports.map(canListen))).every(Boolean)) {
      for (const candidate of ports) handedOut.add(candidate);
      return port;
    }
  }
  throw new Error('No free loopback port in 20000–29999');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
