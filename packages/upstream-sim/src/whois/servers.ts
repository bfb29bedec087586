import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SimWorld } from '../world.ts';
import { answerQuery, throttledAnswer } from './answer.ts';
import type { WhoisFaultBoard, WhoisFaults } from './faults.ts';
import { SIM_WHOIS_SERVER_IDS, type SimWhoisServerId } from './registries.ts';

/** Longest query line read; a client sending more without a line end is cut off. */
const MAX_QUERY_BYTES = 1024;

/**
 * The simulated port-43 WHOIS servers (RFC 3912): real TCP servers on loopback, one port per
 * registry server, as real WHOIS clients limit and throttle per server. Each reads one query
 * line ending in CRLF, writes the answer and closes, unless a fault says otherwise.
 */
export class SimWhoisServers {
  readonly #servers = new Map<SimWhoisServerId, Server>();
  readonly #addresses = new Map<SimWhoisServerId, string>();
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly world: SimWorld,
    private readonly faults: WhoisFaultBoard,
  ) {}

  async open(host: string): Promise<void> {
    for (const id of SIM_WHOIS_SERVER_IDS) {
      const server = createServer((socket) => this.#serve(id, socket));
      this.#servers.set(id, server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, () => resolve());
      });
      const { port } = server.address() as { port: number };
      this.#addresses.set(id, `${host}:${port}`);
    }
  }

  /** `host:port` of a server. */
  address(id: SimWhoisServerId): string {
    const address = this.#addresses.get(id);
    if (!address) throw new Error('the WHOIS servers are not listening');
    return address;
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    for (const socket of this.#sockets) socket.destroy();
    await Promise.all(
      [...this.#servers.values()].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
  }

  #serve(id: SimWhoisServerId, socket: Socket): void {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    socket.on('error', () => {});
    if (this.faults.get(id).refuse) {
      this.faults.record(id, Date.now());
      socket.resetAndDestroy();
      return;
    }
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf(0x0a);
      if (end < 0) {
        if (received.length > MAX_QUERY_BYTES) socket.destroy();
        return;
      }
      socket.off('data', onData);
      const line = received.subarray(0, end).toString('latin1').replace(/\r$/, '');
      this.#answer(id, socket, line).catch(() => socket.destroy());
    };
    socket.on('data', onData);
  }

  async #answer(id: SimWhoisServerId, socket: Socket, line: string): Promise<void> {
    const faults = this.faults.get(id);
    const inLastSecond = this.faults.record(id, Date.now());
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    if (faults.hang || socket.destroyed) return;
    if (faults.rateLimitPerSecond !== null && inLastSecond > faults.rateLimitPerSecond) {
      const throttled = faults.throttleByDropping ? undefined : throttledAnswer(this.world, id, line);
      if (throttled) this.#send(socket, throttled, faults);
      else socket.destroy();
      return;
    }
    if (faults.empty) {
      socket.end();
      return;
    }
    if (faults.garbage) {
      this.#send(socket, garbage(4096), faults);
      return;
    }
    const answer = answerQuery(this.world, id, line);
    if (!answer) {
      socket.end();
      return;
    }
    const bytes =
      faults.hugeAnswerBytes !== null && answer.verdict === 'registered'
        ? padded(answer.bytes, faults.hugeAnswerBytes)
        : answer.bytes;
    this.#send(socket, bytes, faults);
  }

  #send(socket: Socket, bytes: Buffer, faults: WhoisFaults): void {
    if (faults.dripIntervalMs === null) {
      if (faults.neverClose) socket.write(bytes);
      else socket.end(bytes);
      return;
    }
    const interval = faults.dripIntervalMs;
    let offset = 0;
    const next = () => {
      if (socket.destroyed) return;
      if (offset >= bytes.length) {
        if (!faults.neverClose) socket.end();
        return;
      }
      socket.write(bytes.subarray(offset, offset + 1));
      offset += 1;
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        next();
      }, interval);
      this.#timers.add(timer);
    };
    next();
  }
}

/** The answer, then remark lines up to about `size` bytes, as a registry listing thousands of hosts would send. */
function padded(answer: Buffer, size: number): Buffer {
  const line = Buffer.from(`% ${'remark '.repeat(10)}\r\n`);
  const count = Math.max(0, Math.ceil((size - answer.length) / line.length));
  return Buffer.concat([answer, ...Array.from({ length: count }, () => line)]);
}

/** Bytes no charset reads as text: NULs, C0 controls, invalid UTF-8 and ISO-2022-JP escapes, from a fixed seed. */
function garbage(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let state = 0x2f6b_1d3a;
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    bytes[i] = i % 7 === 0 ? 0 : (state >>> 16) & 0xff;
  }
  return bytes;
}
