/**
 * The simulated registry world behind every upstream the simulator serves: which domains
 * exist in which TLD, their registry status and dates. RDAP answers from it, CZDS renders
 * zone files from it, the archive and SEO simulators read their per-domain facts from it.
 * Tests and the demo mutate it (and advance its clock) to move names through a lifecycle.
 */
export type SimEppStatus =
  | 'active'
  | 'client transfer prohibited'
  | 'client hold'
  | 'server hold'
  | 'redemption period'
  | 'pending delete'
  | 'pending restore';

export interface SimDomain {
  /** Lowercase ASCII name, e.g. `example.com`. */
  name: string;
  tld: string;
  status: SimEppStatus[];
  createdAt: number;
  expiresAt: number;
  updatedAt: number;
  registrar: { name: string; ianaId: string; url: string };
  nameservers: string[];
  /** Whether the name is published in the zone (delegated). Redemption/pending-delete names are not. */
  inZone: boolean;
  /** First web-archive capture, if any (Wayback sim). */
  firstArchivedAt?: number;
  /** Moz Domain Authority / Majestic Trust & Citation Flow (SEO sims). */
  da?: number;
  tf?: number;
  cf?: number;
}

export class SimWorld {
  readonly domains = new Map<string, SimDomain>();
  /** Names each registry refuses to register (reserved lists), by TLD. */
  readonly reserved = new Map<string, Set<string>>();
  #now: number;

  constructor(start: number | string | Date = Date.now()) {
    this.#now = new Date(start).getTime();
  }

  now(): number {
    return this.#now;
  }
  setNow(time: number | string | Date): void {
    this.#now = new Date(time).getTime();
  }
  advance(ms: number): void {
    this.#now += ms;
  }

  register(name: string, facts: Partial<Omit<SimDomain, 'name' | 'tld'>> = {}): SimDomain {
    const tld = name.slice(name.indexOf('.') + 1);
    const now = this.#now;
    const domain: SimDomain = {
      name,
      tld,
      status: ['client transfer prohibited'],
      createdAt: now - 3 * 365 * 86_400_000,
      expiresAt: now + 365 * 86_400_000,
      updatedAt: now - 30 * 86_400_000,
      registrar: { name: 'Example Registrar, Inc.', ianaId: '9999', url: 'https://registrar.example' },
      nameservers: [`ns1.${name}`, `ns2.${name}`],
      inZone: true,
      ...facts,
    };
    this.domains.set(name, domain);
    return domain;
  }

  get(name: string): SimDomain | undefined {
    return this.domains.get(name);
  }

  /** Removes a name from the registry: RDAP answers 404 and it can be registered again. */
  purge(name: string): void {
    this.domains.delete(name);
  }

  /** Every name of a TLD, in no particular order. */
  *inTld(tld: string): Iterable<SimDomain> {
    for (const domain of this.domains.values()) if (domain.tld === tld) yield domain;
  }

  isReserved(name: string): boolean {
    const tld = name.slice(name.indexOf('.') + 1);
    return this.reserved.get(tld)?.has(name) ?? false;
  }
}
