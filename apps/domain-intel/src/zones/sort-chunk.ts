/**
 * One in-memory chunk of the external sort. Names are copied into a byte arena (so they do not
 * keep alive the big decoded text they were cut from) and sorted by a numeric key made of their
 * first bytes, with a native typed-array sort; only names sharing that prefix are compared as
 * bytes. Sorting a million strings with a JavaScript comparator is several times slower.
 */
export class SortChunk {
  #arena = Buffer.allocUnsafe(1 << 20);
  #used = 0;
  #starts: Uint32Array;
  #ends: Uint32Array;
  #count = 0;
  /** A byte outside the ranked alphabet was seen: fall back to whole-name comparisons. */
  #unranked = false;

  constructor(readonly capacity: number) {
    if (capacity > MAX_NAMES) throw new RangeError(`A sort chunk holds at most ${MAX_NAMES} names`);
    this.#starts = new Uint32Array(capacity);
    this.#ends = new Uint32Array(capacity);
  }

  get length(): number {
    return this.#count;
  }

  get full(): boolean {
    return this.#count >= this.capacity;
  }

  add(name: string): void {
    const bytes = name.length; // latin1: one byte per character
    if (this.#used + bytes > this.#arena.length) this.#grow(bytes);
    this.#arena.write(name, this.#used, bytes, 'latin1');
    this.#starts[this.#count] = this.#used;
    this.#used += bytes;
    this.#ends[this.#count] = this.#used;
    this.#count++;
  }

  /** The names in byte order without duplicates; empties the chunk. */
  sortedDistinct(): string[] {
    const order = this.#order();
    const arena = this.#arena;
    const starts = this.#starts;
    const ends = this.#ends;
    const out: string[] = [];
    let previous = -1;
    for (const index of order) {
      const start = starts[index]!;
      const end = ends[index]!;
      if (previous !== -1 && arena.compare(arena, starts[previous]!, ends[previous]!, start, end) === 0) continue;
      out.push(arena.toString('latin1', start, end));
      previous = index;
    }
    this.#count = 0;
    this.#used = 0;
    this.#unranked = false;
    return out;
  }

  #order(): Uint32Array {
    const count = this.#count;
    const byBytes = (a: number, b: number) =>
      this.#arena.compare(this.#arena, this.#starts[b]!, this.#ends[b]!, this.#starts[a]!, this.#ends[a]!);
    const keys = new Float64Array(count);
    for (let i = 0; i < count; i++) keys[i] = this.#prefixKey(i) * INDEX_SPAN + i;
    if (this.#unranked) return Uint32Array.from({ length: count }, (_, i) => i).sort(byBytes);
    keys.sort();
    const order = new Uint32Array(count);
    let groupStart = 0;
    for (let i = 0; i <= count; i++) {
      const prefix = i < count ? Math.floor(keys[i]! / INDEX_SPAN) : -1;
      if (i > groupStart && (i === count || prefix !== Math.floor(keys[groupStart]! / INDEX_SPAN))) {
        const group = new Uint32Array(i - groupStart);
        for (let j = groupStart; j < i; j++) group[j - groupStart] = keys[j]! % INDEX_SPAN;
        if (group.length > 1) group.sort(byBytes);
        order.set(group, groupStart);
        groupStart = i;
      }
    }
    return order;
  }

  /** The first PREFIX_BYTES bytes as ranks (end of name = 0), so key order is byte order. */
  #prefixKey(index: number): number {
    const start = this.#starts[index]!;
    const end = this.#ends[index]!;
    let key = 0;
    for (let offset = 0; offset < PREFIX_BYTES; offset++) {
      let rank = 0;
      if (start + offset < end) {
        rank = RANKS[this.#arena[start + offset]!]!;
        if (rank === 0) this.#unranked = true;
      }
      key = key * RANK_BASE + rank;
    }
    return key;
  }

  #grow(needed: number): void {
    const bigger = Buffer.allocUnsafe(Math.max(this.#arena.length * 2, this.#used + needed));
    this.#arena.copy(bigger, 0, 0, this.#used);
    this.#arena = bigger;
  }
}

/** The characters of host names, in byte order, ranked 1..n; anything else is 0 (unranked). */
const ALPHABET = '-.0123456789_abcdefghijklmnopqrstuvwxyz';
const RANKS = new Uint8Array(256);
for (let i = 0; i < ALPHABET.length; i++) RANKS[ALPHABET.charCodeAt(i)] = i + 1;
const RANK_BASE = 64;
const PREFIX_BYTES = 4;
/** key = prefix * INDEX_SPAN + index must stay an exact double (< 2^53): 24 prefix bits + 26 index bits. */
const INDEX_SPAN = 2 ** 26;
const MAX_NAMES = INDEX_SPAN;
