import type { SnapshotStore } from '../zones/snapshot-store.ts';

/**
 * For each label, the tracked TLDs whose latest snapshot holds `label.<tld>`. One streaming
 * pass per TLD: the wanted names are sorted the way snapshots are (byte order, which for
 * ASCII names is JavaScript's default string order) and merged against the snapshot, so
 * memory is the label list, never the zone.
 */
export async function registeredElsewhere(
  store: SnapshotStore,
  tlds: readonly string[],
  labels: readonly string[],
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>(labels.map((label) => [label, []]));
  for (const tld of tlds) {
    const date = await store.latestDate(tld);
    if (date === null) continue;
    const suffix = `.${tld}`;
    const wanted = labels.map((label) => label + suffix).sort();
    let next = 0;
    for await (const name of store.read(tld, date)) {
      while (next < wanted.length && wanted[next]! < name) next += 1;
      if (next >= wanted.length) break;
      if (wanted[next] === name) {
        found.get(name.slice(0, -suffix.length))!.push(tld);
        next += 1;
      }
    }
  }
  return found;
}
