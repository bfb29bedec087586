import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { deadlineSignal } from '@repo/server-kit';
import { type AddressPolicy, assertAllowedUrl, BlockedAddressError, guardedLookup } from '@repo/webhooks/address-guard';
import CircuitBreaker from 'opossum';
import PQueue from 'p-queue';
import { Agent, request } from 'undici';
import type { HostLimits } from './host-limits.ts';
import type { RdapTraffic } from './types.ts';
import {
  exchangeFailure,
  type FetchFailureReason,
  isCallerSideFailure,
  parseRetryAfter,
  UpstreamFailure,
} from './upstream-failure.ts';

export interface RdapHttpOptions extends AddressPolicy {
  /**
   * TCP+TLS connect cap per attempt: the one timer of an attempt's own, so a host that never
   * completes a handshake is counted by its breaker even under a budget shorter than `slowAfterMs`.
   */
  connectTimeoutMs: number;
  /**
   * Not a timer: an exchange the deadline ended after running this long is a `timeout` for the
   * host's breaker (a hanging server). One answered later but inside the deadline is an answer.
   */
  slowAfterMs: number;
  maxResponseBytes: number;
  /** Open connections and requests in flight per host. */
  hostConcurrency: number;
  /** Longest `Retry-After` we wait out before retrying; longer ones give `rate_limited`. */
  maxRetryWaitMs: number;
  /** Retries after a 429 (each after the server's `Retry-After`). */
  maxRetries: number;
  /** Longest a 429 silences a host: a `Retry-After` of a day must not mute a registry until restart. */
  maxCoolDownMs: number;
  breaker: { errorThresholdPercentage: number; volumeThreshold: number; resetTimeoutMs: number };
  userAgent: string;
  /**
   * Requests started per second per host, at the host's effective rate and with the share kept
   * for interactive lookups: this process's, or shared with every other process through Redis
   * (when REDIS_URL is set), where a 429 or an opening circuit pauses the host for all of them.
   */
  limits: HostLimits;
}

export type FetchOutcome =
  | { kind: 'ok'; url: string; body: Record<string, unknown> }
  | { kind: 'not_found'; url: string }
  | { kind: 'failure'; url: string; reason: FetchFailureReason; message: string };

/** Per upstream host (name and port): a queue bounding concurrency, a circuit breaker, a cool-down after 429. */
interface HostLane {
  queue: PQueue;
  breaker: CircuitBreaker<[() => Promise<Exchange>], Exchange>;
  coolDownUntil: number;
}

type Exchange =
  | { status: 200; body: Record<string, unknown> }
  | { status: 404 }
  | { status: 429; retryAfterMs: number }
  | { status: 'redirect'; location: string };

/** RFC 7480 §5.2: servers may redirect; we follow a few hops, each checked like the first URL. */
export const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const DEFAULT_RETRY_AFTER_MS = 1000;
/** The breaker judges the last 10 s, in 1 s buckets. */
const BREAKER_BUCKET_MS = 1000;
const BREAKER_BUCKETS = 10;
const RDAP_MEDIA_TYPES = /^application\/(rdap\+)?json\b/i;
/** Interactive lookups take a host's free connection before queued background ones. */
const LANE_PRIORITY: Record<RdapTraffic, number> = { interactive: 1, background: 0 };

/**
 * HTTP to RDAP servers with undici: one connection pool per origin (the Agent's), a connect
 * cap and the caller's deadline as the only bound of an exchange, a response size cap, and per-host lanes so one slow or throttling
 * registry never holds up another.
 */
export class RdapHttp {
  readonly #options: RdapHttpOptions;
  readonly #agent: Agent;
  readonly #lanes = new Map<string, HostLane>();
  // One timer rotates the statistics windows of every breaker (there is a lane per registrar
  // host met, so a timer per breaker would add up).
  readonly #bucketRotation = new EventEmitter();
  readonly #bucketTimer: NodeJS.Timeout;

  constructor(options: RdapHttpOptions) {
    this.#options = options;
    this.#agent = new Agent({
      connections: options.hostConcurrency,
      connect: { timeout: options.connectTimeoutMs, lookup: guardedLookup(options) },
      // No headers/body timers (0 turns undici's off): the caller's deadline is the attempt's only bound.
      headersTimeout: 0,
      bodyTimeout: 0,
      maxResponseSize: options.maxResponseBytes,
    });
    this.#bucketRotation.setMaxListeners(0);
    this.#bucketTimer = setInterval(() => this.#bucketRotation.emit('rotate'), BREAKER_BUCKET_MS).unref();
  }

  /**
   * GETs an RDAP JSON document within `budgetMs`. 429s are retried after their `Retry-After`
   * when that fits the budget; everything else that is not a 200 or a 404 is a failure.
   */
  async getJson(url: string, budgetMs: number, traffic: RdapTraffic, signal?: AbortSignal): Promise<FetchOutcome> {
    let target: URL;
    try {
      target = assertAllowedUrl(url, this.#options);
    } catch (error) {
      return { kind: 'failure', url, reason: 'blocked_address', message: (error as Error).message };
    }
    const deadline = Date.now() + budgetMs;
    // The caller's deadline signal when it has one (the call's single timer), else one of this budget.
    const callSignal = deadlineSignal(deadline, signal);
    for (let hop = 0; ; hop++) {
      const outcome = await this.#getFromHost(target, traffic, deadline, callSignal);
      if (outcome.kind !== 'redirect') return outcome;
      if (hop >= MAX_REDIRECTS) {
        const message = `${url} redirected more than ${MAX_REDIRECTS} times.`;
        return { kind: 'failure', url: target.toString(), reason: 'upstream_error', message };
      }
      try {
        // The next hop passes the same guard: https only (in production), no private addresses.
        target = assertAllowedUrl(new URL(outcome.location, target).toString(), this.#options);
      } catch (error) {
        const message = `${target.host} redirected to a URL we do not follow: ${(error as Error).message}`;
        return { kind: 'failure', url: outcome.location, reason: 'blocked_address', message };
      }
    }
  }

  /** One URL on its host's lane: 429s waited out (within the budget and the cap), redirects handed back. */
  async #getFromHost(
    target: URL,
    traffic: RdapTraffic,
    deadline: number,
    deadlineSignal: AbortSignal,
  ): Promise<FetchOutcome | { kind: 'redirect'; location: string }> {
    const url = target.toString();
    const { limits } = this.#options;
    const lane = this.#lane(target.host);
    let fired: Promise<Exchange> | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        fired = undefined;
        await this.#waitForCoolDown(lane, deadline);
        await limits.admit(target.host, traffic, deadline);
        let generation = 0;
        const exchange = await lane.queue.add(
          async () => {
            // A 429 that came while this request waited for its slot pauses it like every later
            // one, and its slot (taken at the rate before) is taken again at the rate after.
            do {
              await this.#waitForCoolDown(lane, deadline);
              generation = await limits.acquire(target.host, traffic, deadline);
            } while (lane.coolDownUntil > Date.now());
            fired = lane.breaker.fire(() => this.#exchange(target, deadlineSignal));
            return fired;
          },
          { signal: deadlineSignal, priority: LANE_PRIORITY[traffic] },
        );
        if (exchange.status === 200) return { kind: 'ok', url, body: exchange.body };
        if (exchange.status === 404) return { kind: 'not_found', url };
        if (exchange.status === 'redirect') return { kind: 'redirect', location: exchange.location };
        const coolDown = Math.min(exchange.retryAfterMs, this.#options.maxCoolDownMs);
        lane.coolDownUntil = Math.max(lane.coolDownUntil, Date.now() + coolDown);
        await this.#pauseShared(target.host, coolDown);
        // RFC 7480 §5.5: slow down, not only wait; AdaptiveRates never fails (it keeps the last rate).
        await limits.throttled(target.host, generation);
        if (attempt >= this.#options.maxRetries) {
          throw new UpstreamFailure('rate_limited', `${target.host} answered 429 Too Many Requests.`);
        }
      }
    } catch (error) {
      const failure = this.#classify(await exchangeFailure(fired, error), target, deadlineSignal);
      return { kind: 'failure', url, reason: failure.reason, message: failure.message };
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#bucketTimer);
    for (const lane of this.#lanes.values()) {
      lane.queue.clear();
      lane.breaker.shutdown();
    }
    await this.#agent.close();
  }

  #lane(host: string): HostLane {
    let lane = this.#lanes.get(host);
    if (!lane) {
      const { breaker } = this.#options;
      lane = {
        queue: new PQueue({ concurrency: this.#options.hostConcurrency }),
        breaker: new CircuitBreaker((task: () => Promise<Exchange>) => task(), {
          timeout: false,
          errorThresholdPercentage: breaker.errorThresholdPercentage,
          volumeThreshold: breaker.volumeThreshold,
          resetTimeout: breaker.resetTimeoutMs,
          errorFilter: isCallerSideFailure,
          rollingCountTimeout: BREAKER_BUCKET_MS * BREAKER_BUCKETS,
          rollingCountBuckets: BREAKER_BUCKETS,
          rotateBucketController: this.#bucketRotation,
          enableSnapshots: false,
        }),
        coolDownUntil: 0,
      };
      // A circuit that opens here pauses the host for the other processes too.
      lane.breaker.on('open', () => void this.#pauseShared(host, breaker.resetTimeoutMs));
      this.#lanes.set(host, lane);
    }
    return lane;
  }

  /** A failure to reach Redis must not fail the lookup: the lane's own cool-down still holds. */
  async #pauseShared(host: string, ms: number): Promise<void> {
    await this.#options.limits.pause(host, ms).catch(() => {});
  }

  /** Honours a host's last `Retry-After` for every request to it, or gives up when it is too long. */
  async #waitForCoolDown(lane: HostLane, deadline: number): Promise<void> {
    const wait = lane.coolDownUntil - Date.now();
    if (wait <= 0) return;
    if (wait > this.#options.maxRetryWaitMs || Date.now() + wait > deadline) {
      throw new UpstreamFailure(
        'rate_limited',
        `The RDAP server asked us to wait ${Math.ceil(wait / 1000)} s before the next request.`,
      );
    }
    await sleep(wait);
  }

  /** One request; every failure leaves as an `UpstreamFailure`, so the breaker can judge it. */
  async #exchange(target: URL, deadlineSignal: AbortSignal): Promise<Exchange> {
    const startedAt = Date.now();
    try {
      return await this.#request(target, deadlineSignal);
    } catch (error) {
      if (error instanceof UpstreamFailure) throw error;
      const { reason, message } = this.#classify(error, target, deadlineSignal);
      const { slowAfterMs } = this.#options;
      if (reason === 'deadline_exceeded' && Date.now() - startedAt >= slowAfterMs) {
        // Our deadline ended it, but only after the host had been silent too long: a hanging
        // server, which its breaker must count (it ignores `deadline_exceeded`).
        throw new UpstreamFailure('timeout', `${target.host} did not answer within ${slowAfterMs} ms.`);
      }
      throw new UpstreamFailure(reason, message);
    }
  }

  async #request(target: URL, deadlineSignal: AbortSignal): Promise<Exchange> {
    const response = await request(target, {
      method: 'GET',
      dispatcher: this.#agent,
      signal: deadlineSignal,
      headers: { accept: 'application/rdap+json, application/json;q=0.9', 'user-agent': this.#options.userAgent },
    });
    const { statusCode, headers, body } = response;
    if (statusCode === 200) {
      const declaredLength = Number(headers['content-length']);
      if (declaredLength > this.#options.maxResponseBytes) {
        body.destroy();
        throw new UpstreamFailure('response_too_large', `The response of ${target.host} is ${declaredLength} bytes.`);
      }
      const contentType = String(headers['content-type'] ?? '');
      const text = await body.text();
      if (!RDAP_MEDIA_TYPES.test(contentType)) {
        throw new UpstreamFailure('malformed_response', `${target.host} answered with content type "${contentType}".`);
      }
      return { status: 200, body: parseJsonObject(text, target.host) };
    }
    if (statusCode === 404) return readNotFound(target.host, headers, await body.text());
    await body.dump();
    if (REDIRECT_STATUSES.has(statusCode)) {
      const location = headers.location;
      if (typeof location !== 'string' || location === '') {
        throw new UpstreamFailure('upstream_error', `${target.host} answered ${statusCode} without a Location.`);
      }
      return { status: 'redirect', location };
    }
    if (statusCode === 429) {
      return {
        status: 429,
        retryAfterMs: parseRetryAfter(headers['retry-after'], Date.now()) ?? DEFAULT_RETRY_AFTER_MS,
      };
    }
    throw new UpstreamFailure('upstream_error', `${target.host} answered HTTP ${statusCode}.`);
  }

  #classify(error: unknown, target: URL, deadlineSignal: AbortSignal): { reason: FetchFailureReason; message: string } {
    if (error instanceof UpstreamFailure) return { reason: error.reason, message: error.message };
    const code = errorCode(error);
    if (code === 'EOPENBREAKER') {
      return { reason: 'circuit_open', message: `Requests to ${target.host} are paused after repeated failures.` };
    }
    if (deadlineSignal.aborted) {
      return { reason: 'deadline_exceeded', message: `${target.host} did not answer before the deadline.` };
    }
    if (error instanceof BlockedAddressError || code === 'ERR_RDAP_BLOCKED_ADDRESS') {
      return { reason: 'blocked_address', message: (error as Error).message };
    }
    if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
      return { reason: 'response_too_large', message: `The response of ${target.host} exceeds the size cap.` };
    }
    if (
      code === 'UND_ERR_CONNECT_TIMEOUT' ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT' ||
      (error as Error)?.name === 'TimeoutError' ||
      (error as Error)?.name === 'AbortError'
    ) {
      return { reason: 'timeout', message: `${target.host} did not answer in time.` };
    }
    return { reason: 'network_error', message: `Could not reach ${target.host} (${code ?? 'connection failed'}).` };
  }
}

/**
 * A 404 makes a name "available", the one answer we must never give by mistake, so only an RDAP
 * server's own 404 counts: an empty body, or an RDAP error object (RFC 9083 §6, `errorCode`) sent
 * as JSON, or a registry's own JSON error naming a missing domain (AFNIC's, below). A CDN's XML, a gateway's `{"message":"Not Found"}`, a plain-text or HTML page (with or
 * without a content type) is some other server talking, and tells nothing about the name.
 */
function readNotFound(host: string, headers: Record<string, string | string[] | undefined>, text: string): Exchange {
  if (text.trim() === '') return { status: 404 };
  const contentType = String(headers['content-type'] ?? '');
  if (RDAP_MEDIA_TYPES.test(contentType)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (isRecord(value)) {
      const { errorCode } = value;
      if (errorCode !== undefined ? Number(errorCode) === 404 : Array.isArray(value.rdapConformance)) {
        return { status: 404 };
      }
      if (saysNoSuchDomain(value)) return { status: 404 };
    }
  }
  const what = contentType === '' ? 'a body without a content type' : `"${contentType.split(';')[0]}"`;
  throw new UpstreamFailure('malformed_response', `${host} answered 404 with ${what}, not an RDAP answer.`);
}

/**
 * AFNIC's RDAP server (rdap.nic.fr, recorded in 2026) answers an unknown .fr name with its own
 * error list instead of an RFC 9083 error object:
 * `{"errors":[{"errorCode":"NOT_FOUND_DOMAIN_NAME_WITH_NAME","message":"No domain corresponding to …"}]}`.
 * Only a code that names a missing domain counts; any other list is still not an answer.
 */
function saysNoSuchDomain(value: Record<string, unknown>): boolean {
  const errors = Array.isArray(value.errors) ? value.errors : [];
  return errors.some(
    (error) => isRecord(error) && typeof error.errorCode === 'string' && /^NOT_FOUND_DOMAIN/.test(error.errorCode),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJsonObject(text: string, host: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UpstreamFailure('malformed_response', `${host} sent a body that is not valid JSON.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UpstreamFailure('malformed_response', `${host} sent JSON that is not an RDAP object.`);
  }
  return value as Record<string, unknown>;
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
