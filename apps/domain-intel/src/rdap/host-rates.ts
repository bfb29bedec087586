/**
 * Requests per second we allow ourselves at each RDAP host: RDAP_HOST_RATES names the hosts an
 * operator has a figure for (an agreement with the registry, or its observed limit), every other
 * host gets RDAP_HOST_RATE_PER_SECOND. Registries publish no RDAP rate limits (RFC 7480 §5.5 only
 * says a server may answer 429 and the client should then slow down), so the default stays low.
 */
export class HostRates {
  readonly #perHost: ReadonlyMap<string, number>;

  constructor(
    readonly defaultPerSecond: number,
    perHost: Readonly<Record<string, number>> = {},
  ) {
    this.#perHost = new Map(Object.entries(perHost).map(([host, rate]) => [host.toLowerCase(), rate]));
  }

  /** The rate of `host` as a URL's `host` spells it (name, and the port when not the default). */
  of(host: string): number {
    return this.#perHost.get(host.toLowerCase()) ?? this.defaultPerSecond;
  }
}
