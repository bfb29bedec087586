import { seededRandom } from '../churn/random.ts';
import { SIM_RDAP_SERVER_IDS, type SimRdapServerId } from './registries.ts';

/** Misbehaviour a simulated RDAP server can be switched to, one set per server. */
export interface RdapFaults {
  /** Delay before every answer, ms. */
  latencyMs: number;
  /** Above this many requests in the last second, answer 429 (null: never). */
  rateLimitPerSecond: number | null;
  /** The Retry-After (seconds) sent with those 429s. */
  retryAfterSeconds: number;
  /** Answer every request with this 5xx status (null: no). */
  errorStatus: number | null;
  /** Accept the request and never answer. */
  hang: boolean;
  /** Share of requests (0–1, drawn at random) answered 503, as a registry under load does now and then. */
  errorShare: number;
  /** Share of requests (0–1, drawn at random) accepted and never answered: the client's timeout. */
  hangShare: number;
  /** Answer 200 with a body that is not JSON. */
  malformedJson: boolean;
  /** Answer 200 with a valid JSON body of about this many bytes (null: no). */
  oversizeBytes: number | null;
}

export const NO_FAULTS: Readonly<RdapFaults> = {
  latencyMs: 0,
  rateLimitPerSecond: null,
  retryAfterSeconds: 1,
  errorStatus: null,
  hang: false,
  errorShare: 0,
  hangShare: 0,
  malformedJson: false,
  oversizeBytes: null,
};

/** Fault settings, request counts and the rate window of every simulated RDAP server. */
export class RdapFaultBoard {
  readonly #faults = new Map<SimRdapServerId, RdapFaults>();
  readonly #requests = new Map<SimRdapServerId, number>();
  readonly #recent = new Map<SimRdapServerId, number[]>();
  /** Draws which requests the shares of errors and hangs fall on: seeded, so a run is repeatable. */
  readonly #draw = seededRandom(7);

  get(server: SimRdapServerId): RdapFaults {
    return this.#faults.get(server) ?? NO_FAULTS;
  }

  set(server: SimRdapServerId, faults: Partial<RdapFaults>): RdapFaults {
    const merged = { ...this.get(server), ...faults };
    this.#faults.set(server, merged);
    return merged;
  }

  clear(server?: SimRdapServerId): void {
    if (server) this.#faults.delete(server);
    else this.#faults.clear();
  }

  all(): Record<SimRdapServerId, RdapFaults> {
    return Object.fromEntries(SIM_RDAP_SERVER_IDS.map((id) => [id, this.get(id)])) as Record<
      SimRdapServerId,
      RdapFaults
    >;
  }

  /** Counts a request; returns how many arrived in the last second, this one included. */
  record(server: SimRdapServerId, now: number): number {
    this.#requests.set(server, (this.#requests.get(server) ?? 0) + 1);
    const recent = (this.#recent.get(server) ?? []).filter((time) => now - time < 1000);
    recent.push(now);
    this.#recent.set(server, recent);
    return recent.length;
  }

  /** What a request to `server` meets by the shares set on it: an error answer, a hang, or neither. */
  drawFailure(server: SimRdapServerId): 'error' | 'hang' | null {
    const { errorShare, hangShare } = this.get(server);
    if (errorShare <= 0 && hangShare <= 0) return null;
    const roll = this.#draw();
    if (roll < errorShare) return 'error';
    return roll < errorShare + hangShare ? 'hang' : null;
  }

  requestCount(server: SimRdapServerId): number {
    return this.#requests.get(server) ?? 0;
  }

  resetCounts(): void {
    this.#requests.clear();
    this.#recent.clear();
  }
}
