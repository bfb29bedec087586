import type { SimDomain, SimWorld } from '../world.ts';
import { randomLabel, seededRandom } from './random.ts';
import { rememberWebFacts } from './web-facts.ts';

const DAY = 86_400_000;
const YEAR = 365 * DAY;

export const DEFAULT_SIM_TLDS = ['com', 'net', 'org', 'info', 'biz', 'xyz', 'online', 'site', 'top', 'store'];

export interface ZoneChurnOptions {
  seed: number;
  tlds?: readonly string[];
  /** Names registered in each TLD when the world is seeded. */
  namesPerTld?: number;
  /** Seeded expiry dates fall uniformly within this many days from the start. */
  expirySpreadDays?: number;
  /** Share of expiring names the registrant renews (they stay in the zone). */
  renewRate?: number;
  /** Share of names in redemption that the registrant restores (back into the zone). */
  restoreRate?: number;
  /** Share of purged names registered again the next day. */
  reRegisterRate?: number;
  /** New registrations per TLD per day. */
  newPerDay?: number;
  /** Days in redemption before pending delete (30 at real registries). */
  redemptionDays?: number;
  /** Days in pending delete before the purge (5 at real registries). */
  pendingDeleteDays?: number;
  /**
   * Names registered on a given day besides the random ones (`day` 1 is the first advanceDay),
   * e.g. the demo's lookalikes of a brand; they draw no random numbers, so the rest of the
   * world is the same with or without them.
   */
  scheduledRegistrations?: readonly { day: number; name: string }[];
}

/** What one simulated day did, by name. */
export interface ChurnDay {
  date: string;
  registered: string[];
  renewed: string[];
  expired: string[];
  restored: string[];
  pendingDelete: string[];
  purged: string[];
  reRegistered: string[];
}

/**
 * Seeds a SimWorld with ~10 TLDs of names (archive dates, DA/TF/CF for most) and moves it
 * one day at a time through the registry lifecycle: expiry → `redemption period` (out of
 * the zone) → `pending delete` → purge (RDAP 404), with renewals, restores that come back
 * into the zone, re-registrations after the drop, and new registrations. Deterministic for a
 * seed, so tests can assert exact outcomes.
 */
export class ZoneChurn {
  readonly #random: () => number;
  readonly #options: Required<ZoneChurnOptions>;
  /** Labels shared across TLDs, so the same label is registered in several (alt-TLD demand). */
  readonly #labelPool: string[] = [];
  #purgedYesterday: string[] = [];
  /** Days advanced so far. */
  #day = 0;

  constructor(
    readonly world: SimWorld,
    options: ZoneChurnOptions,
  ) {
    this.#options = {
      tlds: DEFAULT_SIM_TLDS,
      namesPerTld: 200,
      expirySpreadDays: 365,
      renewRate: 0.6,
      restoreRate: 0.1,
      reRegisterRate: 0.2,
      newPerDay: 2,
      redemptionDays: 30,
      pendingDeleteDays: 5,
      scheduledRegistrations: [],
      ...options,
    };
    this.#random = seededRandom(options.seed);
  }

  get tlds(): readonly string[] {
    return this.#options.tlds;
  }

  /** Registers `namesPerTld` names in every TLD. Call once on an empty world. */
  seed(): void {
    const { namesPerTld, tlds } = this.#options;
    while (this.#labelPool.length < namesPerTld * 2) this.#labelPool.push(randomLabel(this.#random));
    for (const tld of tlds) {
      let added = 0;
      let attempts = 0;
      while (added < namesPerTld && attempts < namesPerTld * 20) {
        attempts += 1;
        const label = this.#labelPool[Math.floor(this.#random() * this.#labelPool.length)]!;
        const name = `${label}.${tld}`;
        if (this.world.get(name)) continue;
        this.#registerNew(name, this.#random() * this.#options.expirySpreadDays * DAY);
        added += 1;
      }
    }
  }

  /** Moves the world's clock one day on and applies that day's registry events. */
  advanceDay(): ChurnDay {
    this.world.advance(DAY);
    this.#day += 1;
    const now = this.world.now();
    const day: ChurnDay = {
      date: new Date(now).toISOString().slice(0, 10),
      registered: [],
      renewed: [],
      expired: [],
      restored: [],
      pendingDelete: [],
      purged: [],
      reRegistered: [],
    };
    const { renewRate, restoreRate, redemptionDays, pendingDeleteDays } = this.#options;
    // Sorted so the random draws happen in the same order whatever the map's history.
    const domains = [...this.world.domains.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const domain of domains) {
      const status = domain.status;
      if (status.includes('pending delete')) {
        if (now - domain.updatedAt >= pendingDeleteDays * DAY) {
          rememberWebFacts(this.world, domain.name);
          this.world.purge(domain.name);
          day.purged.push(domain.name);
        }
      } else if (status.includes('redemption period')) {
        if (this.#random() < restoreRate / Math.max(1, redemptionDays)) {
          this.#activate(domain, now);
          day.restored.push(domain.name);
        } else if (now - domain.updatedAt >= redemptionDays * DAY) {
          Object.assign(domain, { status: ['pending delete'], updatedAt: now, inZone: false });
          day.pendingDelete.push(domain.name);
        }
      } else if (domain.expiresAt <= now) {
        if (this.#random() < renewRate) {
          domain.expiresAt += YEAR;
          domain.updatedAt = now;
          day.renewed.push(domain.name);
        } else {
          Object.assign(domain, { status: ['redemption period'], updatedAt: now, inZone: false });
          day.expired.push(domain.name);
        }
      }
    }
    for (const name of this.#purgedYesterday) {
      if (!this.world.get(name) && this.#random() < this.#options.reRegisterRate) {
        this.#registerNew(name, YEAR, { fresh: true });
        day.reRegistered.push(name);
      }
    }
    this.#purgedYesterday = day.purged;
    for (const tld of this.#options.tlds) {
      for (let i = 0; i < this.#options.newPerDay; i += 1) {
        const name = `${randomLabel(this.#random)}.${tld}`;
        if (this.world.get(name)) continue;
        this.#registerNew(name, YEAR, { fresh: true });
        day.registered.push(name);
      }
    }
    for (const { day: on, name } of this.#options.scheduledRegistrations) {
      if (on !== this.#day || this.world.get(name)) continue;
      this.#registerNew(name, YEAR, { fresh: true });
      day.registered.push(name);
    }
    return day;
  }

  #activate(domain: SimDomain, now: number): void {
    Object.assign(domain, {
      status: ['client transfer prohibited'],
      updatedAt: now,
      expiresAt: now + YEAR,
      inZone: true,
    });
  }

  #registerNew(name: string, expiresIn: number, options: { fresh?: boolean } = {}): void {
    const now = this.world.now();
    const random = this.#random;
    const age = options.fresh ? 0 : (1 + random() * 20) * YEAR;
    const createdAt = now - age;
    const archived = !options.fresh && random() < 0.8;
    const measured = !options.fresh && random() < 0.7;
    const da = measured ? 1 + Math.floor(random() * 70) : undefined;
    const tf = measured ? Math.floor(random() * 50) : undefined;
    this.world.register(name, {
      createdAt,
      updatedAt: createdAt,
      expiresAt: now + Math.max(DAY, Math.ceil(expiresIn / DAY) * DAY),
      firstArchivedAt: archived ? createdAt + Math.floor(random() * 90) * DAY : undefined,
      da,
      tf,
      cf: tf === undefined ? undefined : tf + Math.floor(random() * 20),
    });
  }
}
