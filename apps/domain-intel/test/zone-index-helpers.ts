import type { SnapshotStore } from '../src/zones/snapshot-store.ts';

/** Snapshot order: byte order of the full names, as `LC_ALL=C sort` gives it. */
export const snapshotOrder = (names: Iterable<string>) =>
  [...new Set(names)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

/**
 * Snapshots held in arrays, to feed the zone index in tests without running a zone import
 * (the real store and its import are tested by the zones work).
 */
export class ArraySnapshots implements SnapshotStore {
  readonly snapshots = new Map<string, Map<string, string[]>>();
  reads = 0;

  put(tld: string, date: string, names: Iterable<string>): void {
    this.putAsIs(tld, date, snapshotOrder(names));
  }

  /** Keeps the given order, to feed a damaged (unsorted) snapshot. */
  putAsIs(tld: string, date: string, names: string[]): void {
    if (!this.snapshots.has(tld)) this.snapshots.set(tld, new Map());
    this.snapshots.get(tld)!.set(date, names);
  }

  async dates(tld: string): Promise<string[]> {
    return [...(this.snapshots.get(tld)?.keys() ?? [])].sort();
  }

  async latestDate(tld: string): Promise<string | null> {
    return (await this.dates(tld)).at(-1) ?? null;
  }

  async *read(tld: string, date: string): AsyncIterable<string> {
    this.reads++;
    yield* this.snapshots.get(tld)?.get(date) ?? [];
  }
}
