import { mgetAcrossSlots, type Redis, TurnBatcher } from '@repo/server-kit';
import { LRUCache } from 'lru-cache';

/**
 * A key-value cache with a time-to-live per entry. Values must survive JSON (the Redis
 * implementation stores them as JSON). A cache never fails a request: when the backing
 * store is unreachable, reads miss and writes are dropped, and `onError` is told.
 */
export interface Cache<T> {
  get(key: string): Promise<T | undefined>;
  /** One answer per key, in order. */
  getMany(keys: readonly string[]): Promise<(T | undefined)[]>;
  set(key: string, value: T, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface CacheOptions {
  /** Keys are stored as `<namespace>:<key>`, so several caches can share one Redis. */
  namespace: string;
  /** Largest number of entries the in-memory cache keeps (least recently used go first). */
  maxEntries: number;
  onError?: (error: unknown) => void;
}

/** In-process LRU cache: the embedded default, and per-instance when Redis is not configured. */
export class MemoryCache<T extends NonNullable<unknown>> implements Cache<T> {
  readonly #entries: LRUCache<string, T>;

  constructor(options: Pick<CacheOptions, 'maxEntries'>) {
    this.#entries = new LRUCache<string, T>({ max: options.maxEntries, ttlAutopurge: false });
  }

  async get(key: string): Promise<T | undefined> {
    return this.#entries.get(key);
  }

  async getMany(keys: readonly string[]): Promise<(T | undefined)[]> {
    return keys.map((key) => this.#entries.get(key));
  }

  async set(key: string, value: T, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    this.#entries.set(key, value, { ttl: ttlMs });
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }
}

/**
 * Redis cache shared by every API instance; entries expire through Redis `PX`. Reads asked for in
 * one turn of the event loop go to Redis as one MGET (server-kit's TurnBatcher): under load a
 * server reads many requests per turn, and a round trip per call cost more than the call's other
 * work. A read still sees every write this process issued before it (one connection, in order).
 */
export class RedisCache<T> implements Cache<T> {
  readonly #redis: Redis;
  readonly #namespace: string;
  readonly #onError: (error: unknown) => void;
  readonly #reads: TurnBatcher<readonly string[], (string | null)[]>;

  constructor(redis: Redis, options: Pick<CacheOptions, 'namespace' | 'onError'>) {
    this.#redis = redis;
    this.#namespace = options.namespace;
    this.#onError = options.onError ?? (() => {});
    this.#reads = new TurnBatcher((keyLists) => this.#readTogether(keyLists));
  }

  /** One MGET for the key lists of a turn, answered list by list. */
  async #readTogether(keyLists: (readonly string[])[]): Promise<(string | null)[][]> {
    const keys: string[] = [];
    for (const list of keyLists) for (const key of list) keys.push(this.#key(key));
    // One MGET per hash slot on a Redis Cluster (the keys of a turn sit in any slots).
    const values = await mgetAcrossSlots(this.#redis, keys);
    let start = 0;
    return keyLists.map((list) => {
      start += list.length;
      return values.slice(start - list.length, start);
    });
  }

  #key(key: string): string {
    return `${this.#namespace}:${key}`;
  }

  async get(key: string): Promise<T | undefined> {
    const [value] = await this.getMany([key]);
    return value;
  }

  async getMany(keys: readonly string[]): Promise<(T | undefined)[]> {
    if (keys.length === 0) return [];
    try {
      const values = await this.#reads.add('', keys);
      return values.map((value) => this.#decode(value));
    } catch (error) {
      this.#onError(error);
      return keys.map(() => undefined);
    }
  }

  async set(key: string, value: T, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    try {
      await this.#redis.set(this.#key(key), JSON.stringify(value), 'PX', Math.ceil(ttlMs));
    } catch (error) {
      this.#onError(error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.#redis.del(this.#key(key));
    } catch (error) {
      this.#onError(error);
    }
  }

  #decode(value: string | null): T | undefined {
    if (value === null) return undefined;
    try {
      return JSON.parse(value) as T;
    } catch (error) {
      // A value another version wrote in a shape we cannot read is a miss, not a failure.
      this.#onError(error);
      return undefined;
    }
  }
}

/** Redis when the service has one, otherwise an in-memory LRU. */
export function createCache<T extends NonNullable<unknown>>(redis: Redis | undefined, options: CacheOptions): Cache<T> {
  return redis ? new RedisCache<T>(redis, options) : new MemoryCache<T>(options);
}
