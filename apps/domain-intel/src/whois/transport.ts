import { isIP, Socket } from 'node:net';
import { deadlineSignal } from '@repo/server-kit';
import { type AddressPolicy, guardedLookup, isAllowedAddress } from '@repo/webhooks/address-guard';
import CircuitBreaker from 'opossum';
import PQueue from 'p-queue';
import type { HostLimits } from '../rdap/host-limits.ts';
import type { RdapTraffic } from '../rdap/types.ts';
import { exchangeFailure, isCallerSideFailure, UpstreamFailure } from '../rdap/upstream-failure.ts';

/** A WHOIS server as we connect to it. */
export interface WhoisAddress {
  host: string;
  port: number;
}

export interface WhoisTransportOptions extends AddressPolicy {
  /**
   * Connect cap: the one timer of an exchange's own, so a server that never accepts is counted by
   * its breaker even under a deadline shorter than `slowAfterMs`.
   */
  connectTimeoutMs: number;
  /**
   * Not a timer: an exchange (connect, query, answer until the server closes) that the deadline
   * ended after running this long is a `timeout` for the server's breaker (a hanging or dripping
   * server). An answer completed later but inside the deadline is an answer.
   */
  slowAfterMs: number;
  maxAnswerBytes: number;
  /** Queries in flight per server. */
  hostConcurrency: number;
  /** Per-server query rate (this process's, or shared through Redis), with the interactive share. */
  limits: HostLimits;
  /** How long a throttling answer pauses a server for every process. */
  throttlePauseMs: number;
  breaker: { errorThresholdPercentage: number; volumeThreshold: number; resetTimeoutMs: number };
}

export type WhoisFailureReason =
  | 'timeout'
  | 'network_error'
  | 'response_too_large'
  | 'blocked_address'
  | 'deadline_exceeded'
  | 'rate_limited'
  | 'circuit_open';

export type WhoisExchange =
  /** The server's bytes, up to its closing the connection. `generation` is the rate the query was admitted at. */
  | { kind: 'answer'; bytes: Buffer; generation: number }
  | { kind: 'failure'; reason: WhoisFailureReason; message: string };

interface ServerLane {
  queue: PQueue;
  breaker: CircuitBreaker<[() => Promise<Buffer>], Buffer>;
  /** A throttling answer seen by this process pauses the server here at once (Redis tells the others). */
  pausedUntil: number;
}

/** Interactive queries take a server's free slot before queued background ones. */
const LANE_PRIORITY: Record<RdapTraffic, number> = { interactive: 1, background: 0 };

/**
 * RFC 3912 over TCP: connect to port 43, send the query and CRLF, read until the server closes.
 * Each server (host and port) has its own lane: a concurrency bound, a rate limit shared with the
 * other processes (HostLimits, keyed `host:port` so it never shares a counter with an RDAP host),
 * a circuit breaker, and a pause after a throttling answer. The SSRF guard is the RDAP engine's:
 * public unicast addresses only, loopback too in the insecure mode (simulator, tests).
 */
export class WhoisTransport {
  readonly #options: WhoisTransportOptions;
  readonly #lanes = new Map<string, ServerLane>();
  readonly #sockets = new Set<Socket>();

  constructor(options: WhoisTransportOptions) {
    this.#options = options;
  }

  async query(
    address: WhoisAddress,
    query: string,
    options: { traffic: RdapTraffic; deadline: number; signal?: AbortSignal },
  ): Promise<WhoisExchange> {
    const key = serverKey(address);
    if (isIP(address.host) !== 0 && !isAllowedAddress(address.host, this.#options)) {
      return {
        kind: 'failure',
        reason: 'blocked_address',
        message: `The WHOIS server ${key} is not at a public address.`,
      };
    }
    const { limits } = this.#options;
    const lane = this.#lane(key);
    // The caller's deadline signal when it has one (the call's single timer), else one of this deadline.
    const callSignal = deadlineSignal(options.deadline, options.signal);
    // Until the query is sent, running out of time means the server's rate or pause kept it waiting.
    let sent = false;
    let exchange: Promise<Buffer> | undefined;
    try {
      this.#assertNotPaused(lane, key);
      await limits.admit(key, options.traffic, options.deadline);
      let generation = 0;
      const bytes = await lane.queue.add(
        async () => {
          this.#assertNotPaused(lane, key);
          generation = await limits.acquire(key, options.traffic, options.deadline);
          sent = true;
          exchange = lane.breaker.fire(() => this.#exchange(address, query, callSignal));
          return exchange;
        },
        { signal: callSignal, priority: LANE_PRIORITY[options.traffic] },
      );
      return { kind: 'answer', bytes, generation };
    } catch (error) {
      const failure = classify(await exchangeFailure(exchange, error), key, callSignal);
      if (!sent && failure.reason === 'deadline_exceeded') {
        const message = `No query slot for ${key} before the deadline (its rate, or a pause after it throttled us).`;
        return { kind: 'failure', reason: 'rate_limited', message };
      }
      return { kind: 'failure', ...failure };
    }
  }

  /**
   * The server answered with its throttling text: pause it here and for every other process, and
   * lower its rate as a 429 lowers an RDAP host's.
   */
  async throttled(address: WhoisAddress, generation: number): Promise<void> {
    const key = serverKey(address);
    const lane = this.#lane(key);
    lane.pausedUntil = Math.max(lane.pausedUntil, Date.now() + this.#options.throttlePauseMs);
    await this.#options.limits.pause(key, this.#options.throttlePauseMs).catch(() => {});
    await this.#options.limits.throttled(key, generation);
  }

  async close(): Promise<void> {
    for (const lane of this.#lanes.values()) {
      lane.queue.clear();
      lane.breaker.shutdown();
    }
    for (const socket of this.#sockets) socket.destroy();
  }

  #assertNotPaused(lane: ServerLane, key: string): void {
    const wait = lane.pausedUntil - Date.now();
    if (wait > 0) {
      throw new UpstreamFailure(
        'rate_limited',
        `${key} throttled our queries; paused for ${Math.ceil(wait / 1000)} s more.`,
      );
    }
  }

  #lane(key: string): ServerLane {
    let lane = this.#lanes.get(key);
    if (!lane) {
      const { breaker } = this.#options;
      lane = {
        queue: new PQueue({ concurrency: this.#options.hostConcurrency }),
        breaker: new CircuitBreaker((task: () => Promise<Buffer>) => task(), {
          timeout: false,
          errorThresholdPercentage: breaker.errorThresholdPercentage,
          volumeThreshold: breaker.volumeThreshold,
          resetTimeout: breaker.resetTimeoutMs,
          errorFilter: isCallerSideFailure,
          enableSnapshots: false,
        }),
        pausedUntil: 0,
      };
      lane.breaker.on('open', () => void this.#options.limits.pause(key, breaker.resetTimeoutMs).catch(() => {}));
      this.#lanes.set(key, lane);
    }
    return lane;
  }

  /** One TCP exchange; every failure leaves as an UpstreamFailure so the breaker can judge it. */
  #exchange(address: WhoisAddress, query: string, deadlineSignal: AbortSignal): Promise<Buffer> {
    const { connectTimeoutMs, slowAfterMs, maxAnswerBytes } = this.#options;
    const key = serverKey(address);
    const startedAt = Date.now();
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let received = 0;
      let settled = false;
      const socket = new Socket();
      this.#sockets.add(socket);
      const finish = (error: UpstreamFailure | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        deadlineSignal.removeEventListener('abort', onAbort);
        this.#sockets.delete(socket);
        socket.destroy();
        if (error) reject(error);
        else resolve(Buffer.concat(chunks, received));
      };
      // The deadline is the exchange's only bound; when it ends one that had run past `slowAfterMs`,
      // the server was hanging or dripping, and its breaker (which ignores `deadline_exceeded`) must count it.
      const onAbort = () =>
        finish(
          Date.now() - startedAt >= slowAfterMs
            ? new UpstreamFailure('timeout', `${key} did not finish its answer within ${slowAfterMs} ms.`)
            : new UpstreamFailure('deadline_exceeded', `${key} did not answer before the deadline.`),
        );
      if (deadlineSignal.aborted) return onAbort();
      deadlineSignal.addEventListener('abort', onAbort, { once: true });
      const connectTimer = setTimeout(
        () => finish(new UpstreamFailure('timeout', `${key} did not accept the connection in time.`)),
        connectTimeoutMs,
      );
      socket.on('connect', () => {
        clearTimeout(connectTimer);
        socket.write(`${query}\r\n`);
      });
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxAnswerBytes) {
          finish(new UpstreamFailure('response_too_large', `The answer of ${key} exceeds ${maxAnswerBytes} bytes.`));
          return;
        }
        chunks.push(chunk);
      });
      socket.on('end', () => finish(null));
      socket.on('close', () => finish(null));
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ERR_RDAP_BLOCKED_ADDRESS') {
          finish(new UpstreamFailure('blocked_address', error.message));
        } else {
          finish(
            new UpstreamFailure('network_error', `Could not reach ${key} (${error.code ?? 'connection failed'}).`),
          );
        }
      });
      socket.connect({ host: address.host, port: address.port, lookup: guardedLookup(this.#options) });
    });
  }
}

/** `host:port`, the key of a server's lane, limits and pauses. */
export function serverKey(address: WhoisAddress): string {
  return `${address.host.toLowerCase()}:${address.port}`;
}

function classify(
  error: unknown,
  key: string,
  deadlineSignal: AbortSignal,
): { reason: WhoisFailureReason; message: string } {
  if (error instanceof UpstreamFailure) {
    return { reason: error.reason as WhoisFailureReason, message: error.message };
  }
  if ((error as { code?: unknown })?.code === 'EOPENBREAKER') {
    return { reason: 'circuit_open', message: `Queries to ${key} are paused after repeated failures.` };
  }
  if (deadlineSignal.aborted) {
    return { reason: 'deadline_exceeded', message: `${key} did not answer before the deadline.` };
  }
  return { reason: 'network_error', message: `The query to ${key} failed (${(error as Error)?.message ?? error}).` };
}
