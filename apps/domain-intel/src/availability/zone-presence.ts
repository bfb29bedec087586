/**
 * Whether a name is delegated in our latest zone snapshot of its TLD. Implemented by the
 * zone index (suggestions work); /v1/check consults it before asking RDAP.
 */
export interface ZonePresence {
  /** true: in the zone (registered); false: not in it; null: we hold no snapshot of that TLD. */
  isInZone(domain: string): Promise<boolean | null>;
}
