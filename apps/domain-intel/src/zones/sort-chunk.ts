import { compareBytes, type NameBatch } from './name-batch.ts';

/**
 * One in-memory chunk of the external sort. Names are copied as bytes into an arena and sorted by
 * a numeric key made of their first six bytes, with a native typed-array sort; only names sharing
 * that prefix are compared as bytes. Sorting a million strings with a JavaScript comparator is
 * several times slower.
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

  /**
   * Adds the newline-terminated names of packed[from…] until the chunk is full; returns where it
   * stopped. Empty names are dropped.
   */
  addPacked(packed: Uint8Array, from = 0): number {
    let position = from;
    // A name is short (~15 bytes): one pass copies it and finds its end, no call per name.
    const longest = Math.min(packed.length - position, MAX_NAME_BYTES);
    while (position < packed.length && this.#count < this.capacity) {
      if (this.#used + longest > this.#arena.length) this.#grow(longest);
      const arena = this.#arena;
      const start = this.#used;
      let at = start;
      while (position < packed.length) {
        const code = packed[position++]!;
        if (code === NEWLINE) break;
        arena[at++] = code;
        if (at - start > MAX_NAME_BYTES) throw new RangeError(`A name is longer than ${MAX_NAME_BYTES} bytes`);
      }
      if (at === start) continue;
      this.#starts[this.#count] = start;
      this.#ends[this.#count] = at;
      this.#used = at;
      this.#count++;
    }
    return position;
  }

  /**
   * The names in byte order without duplicates, packed; empties the chunk. Each name is compared
   * with the one before it (which finds the duplicates), so the order is checked as it is written:
   * a wrong order (a fault in the key sort) throws instead of reaching a snapshot.
   */
  sortedDistinct(): NameBatch {
    const order = this.#order();
    const arena = this.#arena;
    const starts = this.#starts;
    const ends = this.#ends;
    const out = new Uint8Array(this.#used + this.#count);
    let at = 0;
    let count = 0;
    let previousStart = 0;
    let previousEnd = -1;
    let previousFirst = 0;
    for (let block = 0; block < order.length; block += TOUCH_AHEAD) {
      const blockEnd = Math.min(block + TOUCH_AHEAD, order.length);
      // The names are read in sorted order, so each is a random place in the arena, most of them
      // out of the processor's caches: reading a block's first bytes first, in a loop of
      // independent loads, lets their cache misses overlap instead of waiting for each in turn.
      // (What they read is put to use, a first check of the order, so the loads stay.)
      for (let i = block; i < blockEnd; i++) {
        const first = arena[starts[order[i]!]!]!;
        if (first < previousFirst) throw new Error('A sort chunk came out of order');
        previousFirst = first;
      }
      for (let i = block; i < blockEnd; i++) {
        const index = order[i]!;
        const start = starts[index]!;
        const end = ends[index]!;
        // The first name is compared with an end before its start: a negative length, less than any name.
        const comparison = compareBytes(arena, previousStart, previousEnd, arena, start, end);
        if (comparison === 0) continue;
        if (comparison > 0) throw new Error('A sort chunk came out of order');
        for (let j = start; j < end; j++) out[at++] = arena[j]!;
        out[at++] = NEWLINE;
        count++;
        previousStart = start;
        previousEnd = end;
      }
    }
    this.#count = 0;
    this.#used = 0;
    this.#unranked = false;
    return { bytes: out.subarray(0, at), count, ascending: true };
  }

  #order(): Uint32Array {
    const count = this.#count;
    const arena = this.#arena;
    const starts = this.#starts;
    const ends = this.#ends;
    const byBytes = (a: number, b: number) => compareBytes(arena, starts[a]!, ends[a]!, arena, starts[b]!, ends[b]!);
    // key = the first PREFIX_BYTES ranks (6 bits each) above the index (INDEX_BITS), as one
    // unsigned 64-bit integer written through its two 32-bit halves (no BigInt per name).
    const keys = new BigUint64Array(count);
    const words = new Uint32Array(keys.buffer);
    for (let i = 0; i < count; i++) {
      const prefix = this.#prefixKey(i);
      words[2 * i + LOW] = (prefix % PREFIX_LOW_SPAN) * INDEX_SPAN + i;
      words[2 * i + HIGH] = Math.floor(prefix / PREFIX_LOW_SPAN);
    }
    if (this.#unranked) return Uint32Array.from({ length: count }, (_, i) => i).sort(byBytes);
    keys.sort();
    const order = new Uint32Array(count);
    const prefixOf = (i: number) =>
      words[2 * i + HIGH]! * PREFIX_LOW_SPAN + Math.floor(words[2 * i + LOW]! / INDEX_SPAN);
    let groupStart = 0;
    let groupPrefix = count > 0 ? prefixOf(0) : 0;
    for (let i = 0; i <= count; i++) {
      const prefix = i < count ? prefixOf(i) : -1;
      if (i === count || prefix !== groupPrefix) {
        if (i - groupStart === 1) {
          order[groupStart] = words[2 * groupStart + LOW]! % INDEX_SPAN;
        } else if (i > groupStart) {
          // Only names sharing their whole prefix are compared byte by byte.
          const group = new Uint32Array(i - groupStart);
          for (let j = groupStart; j < i; j++) group[j - groupStart] = words[2 * j + LOW]! % INDEX_SPAN;
          group.sort(byBytes);
          order.set(group, groupStart);
        }
        groupStart = i;
        groupPrefix = prefix;
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

const NEWLINE = 0x0a;
/** Names whose first bytes are read ahead of copying them out (see sortedDistinct). */
const TOUCH_AHEAD = 64;

/** Far above any host name (253); bounds the arena room one name may need. */
const MAX_NAME_BYTES = 64 * 1024;

/** The characters of host names, in byte order, ranked 1..n; anything else is 0 (unranked). */
const ALPHABET = '-.0123456789_abcdefghijklmnopqrstuvwxyz';
const RANKS = new Uint8Array(256);
for (let i = 0; i < ALPHABET.length; i++) RANKS[ALPHABET.charCodeAt(i)] = i + 1;
const RANK_BASE = 64;
/** 6 bytes of 6 bits: 36 prefix bits, and 26 index bits below them, fill 62 of a key's 64. */
const PREFIX_BYTES = 6;
const INDEX_BITS = 26;
const INDEX_SPAN = 2 ** INDEX_BITS;
/** The prefix bits that go in the key's low word, above the index: 32 - 26 = 6. */
const PREFIX_LOW_SPAN = 2 ** (32 - INDEX_BITS);
const MAX_NAMES = INDEX_SPAN;
/** Which 32-bit half of a 64-bit key comes first in memory on this machine. */
const LOW = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1;
const HIGH = 1 - LOW;
