import type { SnapshotStore, WritableSnapshotStore } from './snapshot-store.ts';
import { diffSortedLines, type NameChange, namesAsChunks } from './sorted-diff.ts';
import { assertSnapshotDate, normalizeTld } from './validation.ts';

export type { NameChange };

/**
 * What changed in a TLD's zone between two snapshots, as a streaming two-pointer merge in
 * bounded memory: `removed` names left the zone, `added` names entered it (or came back).
 * Changes arrive in byte order of the name.
 */
export function diffSnapshots(
  store: SnapshotStore,
  tld: string,
  fromDate: string,
  toDate: string,
): AsyncIterable<NameChange> {
  const zone = normalizeTld(tld);
  assertSnapshotDate(fromDate);
  assertSnapshotDate(toDate);
  const bytesOf = (date: string) =>
    hasChunks(store) ? store.readChunks(zone, date) : namesAsChunks(store.read(zone, date));
  return diffSortedLines(bytesOf(fromDate), bytesOf(toDate));
}

function hasChunks(store: SnapshotStore): store is WritableSnapshotStore {
  return typeof (store as Partial<WritableSnapshotStore>).readChunks === 'function';
}
