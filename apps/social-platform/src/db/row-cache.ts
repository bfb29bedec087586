/**
 * Rows an instance reuses for `ttlMs` without asking the database, at most `maxEntries` of them
 * (then it starts over: a cache, not a store). The context calls `clear` whenever this process
 * writes the rows' tables (server-kit TableWritesPlugin), so a change made here applies to the
 * next read and one made by another process (instance, CLI) within `ttlMs`. A `ttlMs` of 0 reads
 * every time.
 */
export class RowCache<Key, Row> {
  readonly #entries = new Map<Key, { row: Row; until: number }>();
  /** Counts the clears: a row read while one happened may predate the write and is not kept. */
  #generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The row of `key` while it is cached and fresh; undefined otherwise (then `get` reads it). */
  fresh(key: Key): Row | undefined {
    const cached = this.#entries.get(key);
    return cached && cached.until > performance.now() ? cached.row : undefined;
  }

  /** The row of `key`, from the cache or from `read` (an undefined row, not found, is not kept). */
  async get(key: Key, read: (key: Key) => Promise<Row | undefined>): Promise<Row | undefined> {
    if (this.ttlMs <= 0) return read(key);
    // Wall time (not the service clock): how long a row may be reused is about the database, not the day.
    const now = performance.now();
    const cached = this.#entries.get(key);
    if (cached && cached.until > now) return cached.row;
    const generation = this.#generation;
    const row = await read(key);
    if (row === undefined || generation !== this.#generation) return row;
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(key, { row, until: now + this.ttlMs });
    return row;
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
