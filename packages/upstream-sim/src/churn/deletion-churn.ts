import type { SimWorld } from '../world.ts';
import { randomLabel, seededRandom } from './random.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface DeletionChurnOptions {
  seed: number;
  tld?: string;
  /** Names the registrars delete each day (each leaves the zone and enters redemption), at random times of day. */
  deletedPerDay: number;
  /** Share of deleted names the registrant restores during redemption (back into the zone; they never drop). */
  restoreRate?: number;
  /** Days in redemption before pending delete (30 at gTLD registries). */
  redemptionDays?: number;
  /** Days in pending delete before the purge (5 at gTLD registries). */
  pendingDeleteDays?: number;
  /** When the registry's daily batch runs (ms after 00:00 UTC): redemption → pending delete, and the purge. */
  batchTimeOfDay?: number;
  /**
   * Share of names a registrar puts on hold (`client hold`: out of the zone, RDAP still answers
   * them registered) before it deletes them, `holdDays` later: the zone shows them leaving days
   * to weeks before their redemption starts.
   */
  holdRate?: number;
  /** Shortest and longest hold before the deletion, in days. */
  holdDays?: readonly [number, number];
  /** Share of days whose batch runs off its time, late or early alike. */
  offTimeBatchRate?: number;
  /** Most minutes an off-time batch runs late or early (each off-time day draws its shift up to this). */
  offTimeBatchMaxMinutes?: number;
}

export interface DeletionEvent {
  /** `held`: out of the zone on a registrar hold, deleted later (`deleted`); a name not held leaves the zone at `deleted`. */
  kind: 'held' | 'deleted' | 'restored' | 'pending-delete' | 'purged';
  name: string;
  at: number;
}

interface Held {
  name: string;
  deleteAt: number;
}

interface Deleted {
  name: string;
  deletedAt: number;
  restoreAt: number;
  pendingDeleteAt: number | null;
  restored: boolean;
}

/**
 * `.com`-like deletion churn, event by event on the world's clock: names deleted at random times
 * through the day (out of the zone, `redemption period`, RDAP `last changed` = the deletion),
 * some restored at a random time within redemption (back in the zone), and once a day the
 * registry's batch: names 30 days in redemption move to `pending delete`, names 5 days in
 * pending delete are purged (RDAP 404). A share of names is put on hold first (out of the zone,
 * still registered) and deleted days to weeks later; on some days the batch runs late or early.
 * Only names on this way are held in the world, so a day of 100,000 deletions needs no
 * 160 M-name zone. Deterministic for a seed.
 */
export class DeletionChurn {
  readonly #random: () => number;
  readonly #options: Required<DeletionChurnOptions>;
  /** Names in redemption or pending delete (and those restored since the last batch), oldest deletion first. */
  #onTheWay: Deleted[] = [];
  /** Names leaving the zone (on hold or deleted) of the current day not yet happened, earliest first. */
  #today: number[] = [];
  /** Names on hold, earliest deletion first. */
  readonly #held: Held[] = [];
  #dayStart: number;
  /** When the current day's batch runs (its time of day, shifted on an off-time day). */
  #batchAt = 0;
  #serial = 0;

  constructor(
    readonly world: SimWorld,
    options: DeletionChurnOptions,
    private readonly onEvent: (event: DeletionEvent) => void = () => {},
  ) {
    this.#options = {
      tld: 'com',
      restoreRate: 0.2,
      redemptionDays: 30,
      pendingDeleteDays: 5,
      batchTimeOfDay: 19 * HOUR,
      holdRate: 0,
      holdDays: [3, 30],
      offTimeBatchRate: 0,
      offTimeBatchMaxMinutes: 180,
      ...options,
    };
    this.#random = seededRandom(options.seed);
    this.#dayStart = Math.floor(world.now() / DAY) * DAY;
    this.#planDay(world.now());
  }

  /** Plays every event up to `time` in order, leaving the world's clock at `time`. */
  advanceTo(time: number): void {
    for (;;) {
      const batchAt = this.#batchAt;
      const nextLeaving = this.#today[0] ?? Number.POSITIVE_INFINITY;
      const nextHeldDeletion = this.#held[0]?.deleteAt ?? Number.POSITIVE_INFINITY;
      const nextRestore = this.#nextRestore();
      const next = Math.min(nextLeaving, nextHeldDeletion, nextRestore?.restoreAt ?? Number.POSITIVE_INFINITY);
      const boundary = Math.min(batchAt > this.world.now() ? batchAt : Number.POSITIVE_INFINITY, this.#dayStart + DAY);
      if (Math.min(next, boundary) > time) break;
      if (next <= boundary) {
        this.world.setNow(next);
        if (next === nextLeaving) this.#leave(this.#today.shift()!);
        else if (next === nextHeldDeletion) {
          const held = this.#held.shift()!;
          this.#delete(held.name, held.deleteAt);
        } else this.#restore(nextRestore!);
      } else if (boundary === batchAt) {
        this.world.setNow(batchAt);
        this.#batch(batchAt);
      } else {
        this.#dayStart += DAY;
        this.world.setNow(this.#dayStart);
        this.#planDay(this.#dayStart);
      }
    }
    if (time > this.world.now()) this.world.setNow(time);
  }

  #planDay(from: number): void {
    const end = this.#dayStart + DAY;
    this.#batchAt = this.#dayStart + this.#options.batchTimeOfDay;
    if (this.#options.offTimeBatchRate > 0 && this.#random() < this.#options.offTimeBatchRate) {
      const shift = (this.#random() * 2 - 1) * this.#options.offTimeBatchMaxMinutes * 60_000;
      this.#batchAt = Math.min(Math.max(this.#batchAt + Math.round(shift), this.#dayStart), end - 1);
    }
    this.#today = Array.from({ length: this.#options.deletedPerDay }, () => this.#dayStart + this.#random() * DAY)
      .filter((at) => at >= from && at < end)
      .sort((a, b) => a - b);
  }

  /** Names that will be restored and have not been yet, earliest restore first (always within redemption). */
  readonly #restores: Deleted[] = [];

  #nextRestore(): Deleted | undefined {
    return this.#restores[0];
  }

  #scheduleRestore(entry: Deleted): void {
    let low = 0;
    let high = this.#restores.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#restores[middle]!.restoreAt <= entry.restoreAt) low = middle + 1;
      else high = middle;
    }
    this.#restores.splice(low, 0, entry);
  }

  /** A name leaves the zone: deleted now, or put on hold and deleted days to weeks later. */
  #leave(at: number): void {
    const { tld, holdRate, holdDays } = this.#options;
    this.#serial += 1;
    const name = `${randomLabel(this.#random)}${this.#serial.toString(36)}.${tld}`;
    if (holdRate > 0 && this.#random() < holdRate) {
      const [shortest, longest] = holdDays;
      const deleteAt = at + (shortest + this.#random() * (longest - shortest)) * DAY;
      this.world.register(name, { status: ['client hold'], updatedAt: at, expiresAt: deleteAt, inZone: false });
      let low = 0;
      let high = this.#held.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (this.#held[middle]!.deleteAt <= deleteAt) low = middle + 1;
        else high = middle;
      }
      this.#held.splice(low, 0, { name, deleteAt });
      this.onEvent({ kind: 'held', name, at });
      return;
    }
    this.#delete(name, at);
  }

  #delete(name: string, at: number): void {
    const { redemptionDays, restoreRate } = this.#options;
    const fields = { status: ['redemption period' as const], updatedAt: at, expiresAt: at, inZone: false };
    const known = this.world.get(name);
    if (known) Object.assign(known, fields);
    else this.world.register(name, fields);
    const restores = this.#random() < restoreRate;
    const entry: Deleted = {
      name,
      deletedAt: at,
      restoreAt: restores ? at + this.#random() * redemptionDays * DAY : Number.POSITIVE_INFINITY,
      pendingDeleteAt: null,
      restored: false,
    };
    this.#onTheWay.push(entry);
    if (restores) this.#scheduleRestore(entry);
    this.onEvent({ kind: 'deleted', name, at });
  }

  #restore(entry: Deleted): void {
    this.#restores.shift();
    const at = entry.restoreAt;
    Object.assign(this.world.get(entry.name)!, {
      status: ['client transfer prohibited'],
      updatedAt: at,
      expiresAt: at + 365 * DAY,
      inZone: true,
    });
    entry.restored = true;
    this.onEvent({ kind: 'restored', name: entry.name, at });
  }

  #batch(at: number): void {
    const { redemptionDays, pendingDeleteDays } = this.#options;
    const staying: Deleted[] = [];
    for (const entry of this.#onTheWay) {
      if (entry.restored) continue;
      if (entry.pendingDeleteAt === null && at - entry.deletedAt >= redemptionDays * DAY) {
        entry.pendingDeleteAt = at;
        Object.assign(this.world.get(entry.name)!, { status: ['pending delete'], updatedAt: at });
        this.onEvent({ kind: 'pending-delete', name: entry.name, at });
      } else if (
        entry.pendingDeleteAt !== null &&
        // By calendar day, as registries count it: a batch that runs early or late purges the day's names all the same.
        Math.floor(at / DAY) - Math.floor(entry.pendingDeleteAt / DAY) >= pendingDeleteDays
      ) {
        this.world.purge(entry.name);
        this.onEvent({ kind: 'purged', name: entry.name, at });
        continue;
      }
      staying.push(entry);
    }
    this.#onTheWay = staying;
  }
}
