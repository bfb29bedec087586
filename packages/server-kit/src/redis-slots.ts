import { isCluster, type Redis } from './redis.ts';

/**
 * Redis Cluster's hash slot of a key (the cluster specification: CRC16/XMODEM of the key, or of
 * its hash tag — the part between the first `{` and the next `}` when that is not empty —
 * modulo 16384). Keys a script or a multi-key command touches together must share a slot.
 */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) key = key.slice(open + 1, close);
  }
  let crc = 0;
  for (const byte of Buffer.from(key)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/**
 * `items` split into groups whose keys share a hash slot (in their order), so each group can be
 * one command or script. One group on a single Redis, where every key is on the one server. The
 * slot is that of the key Redis stores, with the client's key prefix.
 */
export function groupBySlot<T>(redis: Redis, items: readonly T[], keyOf: (item: T) => string): T[][] {
  if (!isCluster(redis)) return items.length > 0 ? [[...items]] : [];
  const prefix = redis.options.keyPrefix ?? '';
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const slot = keySlot(prefix + keyOf(item));
    const group = groups.get(slot);
    if (group) group.push(item);
    else groups.set(slot, [item]);
  }
  return [...groups.values()];
}

/**
 * MGET of keys in any slots: one MGET per slot on a Redis Cluster (a multi-slot MGET is refused
 * there), all sent at once; one MGET on a single Redis. Values come back in the keys' order.
 */
export async function mgetAcrossSlots(redis: Redis, keys: readonly string[]): Promise<(string | null)[]> {
  if (keys.length === 0) return [];
  if (!isCluster(redis)) return redis.mget(keys as string[]);
  const indexed = keys.map((key, index) => ({ key, index }));
  const values: (string | null)[] = new Array(keys.length).fill(null);
  await Promise.all(
    groupBySlot(redis, indexed, (entry) => entry.key).map(async (group) => {
      const answers = await redis.mget(group.map((entry) => entry.key));
      group.forEach((entry, i) => {
        values[entry.index] = answers[i] ?? null;
      });
    }),
  );
  return values;
}
