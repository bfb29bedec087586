import { SIM_WHOIS_SERVER_IDS, type SimWhoisServerId } from './registries.ts';

/** Misbehaviour a simulated WHOIS server can be switched to, one set per server. */
export interface WhoisFaults {
  /** Delay between reading the query and answering, ms. */
  latencyMs: number;
  /**
   * Above this many queries in the last second, throttle (null: never): with the registry's own
   * throttling text where the real server has one, else by dropping the connection unanswered.
   */
  rateLimitPerSecond: number | null;
  /** Throttle by dropping the connection even where the registry has a throttling text. */
  throttleByDropping: boolean;
  /** Reset every connection as it is accepted (TCP RST): the client is refused. */
  refuse: boolean;
  /** Read the query and never answer, never close. */
  hang: boolean;
  /** Answer, then keep the connection open (RFC 3912 has the server close it). */
  neverClose: boolean;
  /** Write the answer one byte at a time, this many ms apart (null: all at once). */
  dripIntervalMs: number | null;
  /** Answer registered names with about this many bytes: the real answer, then filler remarks (null: no). */
  hugeAnswerBytes: number | null;
  /** Answer with bytes that are no text in any charset. */
  garbage: boolean;
  /** Close the connection without writing a byte. */
  empty: boolean;
}

export const NO_WHOIS_FAULTS: Readonly<WhoisFaults> = {
  latencyMs: 0,
  rateLimitPerSecond: null,
  throttleByDropping: false,
  refuse: false,
  hang: false,
  neverClose: false,
  dripIntervalMs: null,
  hugeAnswerBytes: null,
  garbage: false,
  empty: false,
};

/** Fault settings, query counts and the rate window of every simulated WHOIS server. */
export class WhoisFaultBoard {
  readonly #faults = new Map<SimWhoisServerId, WhoisFaults>();
  readonly #queries = new Map<SimWhoisServerId, number>();
  readonly #recent = new Map<SimWhoisServerId, number[]>();

  get(server: SimWhoisServerId): WhoisFaults {
    return this.#faults.get(server) ?? NO_WHOIS_FAULTS;
  }

  set(server: SimWhoisServerId, faults: Partial<WhoisFaults>): WhoisFaults {
    const merged = { ...this.get(server), ...faults };
    this.#faults.set(server, merged);
    return merged;
  }

  clear(server?: SimWhoisServerId): void {
    if (server) this.#faults.delete(server);
    else this.#faults.clear();
  }

  all(): Record<SimWhoisServerId, WhoisFaults> {
    return Object.fromEntries(SIM_WHOIS_SERVER_IDS.map((id) => [id, this.get(id)])) as Record<
      SimWhoisServerId,
      WhoisFaults
    >;
  }

  /** Counts a connection (a query, or one refused); returns how many arrived in the last second, this one included. */
  record(server: SimWhoisServerId, now: number): number {
    this.#queries.set(server, (this.#queries.get(server) ?? 0) + 1);
    const recent = (this.#recent.get(server) ?? []).filter((time) => now - time < 1000);
    recent.push(now);
    this.#recent.set(server, recent);
    return recent.length;
  }

  requestCount(server: SimWhoisServerId): number {
    return this.#queries.get(server) ?? 0;
  }

  resetCounts(): void {
    this.#queries.clear();
    this.#recent.clear();
  }
}
