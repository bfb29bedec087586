/**
 * Daily zone snapshots: per TLD and UTC date, the sorted (byte order, as `LC_ALL=C sort`),
 * de-duplicated list of second-level names delegated in that zone, as full lowercase ASCII
 * names without the trailing dot (`example.com`). Implemented by the zones work; read by the
 * lifecycle, alt-TLD demand, the zone index and Enterprise snapshot downloads.
 */
export interface SnapshotStore {
  /** Dates (YYYY-MM-DD) held for a TLD, oldest first. */
  dates(tld: string): Promise<string[]>;
  latestDate(tld: string): Promise<string | null>;
  /** Streams the names of one snapshot in sorted order. */
  read(tld: string, date: string): AsyncIterable<string>;
}
