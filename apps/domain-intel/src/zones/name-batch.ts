/**
 * Names packed as bytes, each followed by "\n" (latin1: one byte per character): how names travel
 * from the zone reader to the sort, and from the sort to the snapshot, without a JavaScript string
 * (and its garbage) per name — ~160 M of them for `.com`. A batch's bytes are the only view of
 * their ArrayBuffer, so it can be transferred to a worker thread without a copy.
 */
export interface NameBatch {
  bytes: Uint8Array;
  count: number;
  /**
   * Set by a producer that saw, name by name, that each name of the batch is greater in byte
   * order than the one before it: the snapshot's order check then needs only the batch's edges.
   */
  ascending?: boolean;
}

const NEWLINE = 0x0a;

/** The names of a batch as strings (tests, small zones, callers that want strings). */
export function namesOf(batch: NameBatch): string[] {
  if (batch.count === 0) return [];
  return Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength - 1)
    .toString('latin1')
    .split('\n');
}

export function isNameBatch(value: readonly string[] | NameBatch): value is NameBatch {
  return !Array.isArray(value);
}

/** Packs names (latin1, without newlines) into one batch. */
export function batchOf(names: readonly string[]): NameBatch {
  const text = names.length === 0 ? '' : `${names.join('\n')}\n`;
  const bytes = new Uint8Array(text.length);
  Buffer.from(bytes.buffer).write(text, 'latin1');
  return { bytes, count: names.length };
}

/**
 * Collects names into batches of about `batchBytes`, dropping a name equal to the one just before
 * it (a zone lists each delegation's NS records together, so most repeats go before they reach
 * the sort; a merge meets the same name from several runs one after the other), and folding
 * ASCII upper case to lower case when asked.
 */
export class NameBatchWriter {
  #bytes: Uint8Array;
  #used = 0;
  #count = 0;
  /** The last name written, compared and replaced in the same pass as the copy. */
  #last = new Uint8Array(256);
  #lastLength = -1;
  /** A name of the batch being written came after a greater one. */
  #descended = false;

  readonly #foldCase: boolean;
  readonly #batchBytes: number;

  constructor(options: { foldCase: boolean; batchBytes?: number }) {
    this.#foldCase = options.foldCase;
    this.#batchBytes = options.batchBytes ?? 256 * 1024;
    this.#bytes = new Uint8Array(this.#batchBytes);
  }

  get full(): boolean {
    return this.#used >= this.#batchBytes;
  }

  /**
   * Adds the name in source[start, end). The comparison with the name before it that finds a
   * repeat also tells whether the names come in ascending order (the batch's `ascending`).
   */
  add(source: Uint8Array, start: number, end: number): void {
    const length = end - start;
    if (this.#used + length + 1 > this.#bytes.length) this.#grow(length + 1);
    if (length > this.#last.length) this.#last = new Uint8Array(length * 2);
    const out = this.#bytes;
    const last = this.#last;
    const at = this.#used;
    const fold = this.#foldCase;
    const lastLength = this.#lastLength;
    let differs = false;
    for (let i = 0; i < length; i++) {
      let code = source[start + i]!;
      if (fold && code >= 0x41 && code <= 0x5a) code |= 0x20;
      out[at + i] = code;
      if (!differs && (i >= lastLength || last[i] !== code)) {
        differs = true;
        if (i < lastLength && code < last[i]!) this.#descended = true;
      }
      last[i] = code;
    }
    this.#lastLength = length;
    if (!differs) {
      if (length === lastLength) return; // the same name again
      if (length < lastLength) this.#descended = true; // a prefix of the name before it
    }
    out[at + length] = NEWLINE;
    this.#used = at + length + 1;
    this.#count++;
  }

  addString(name: string): void {
    const bytes = Buffer.from(name, 'latin1');
    this.add(bytes, 0, bytes.length);
  }

  /** The names written since the last call, or undefined when there are none. */
  take(): NameBatch | undefined {
    if (this.#count === 0) return undefined;
    const batch = { bytes: this.#bytes.subarray(0, this.#used), count: this.#count, ascending: !this.#descended };
    this.#bytes = new Uint8Array(this.#batchBytes);
    this.#used = 0;
    this.#count = 0;
    this.#descended = false;
    return batch;
  }

  #grow(needed: number): void {
    const bigger = new Uint8Array(Math.max(this.#bytes.length * 2, this.#used + needed));
    bigger.set(this.#bytes.subarray(0, this.#used));
    this.#bytes = bigger;
  }
}

/**
 * Checks that packed names, batch after batch, are in strictly increasing byte order. A batch its
 * producer found `ascending` is checked at its edges only: its first name against the previous
 * batch's last.
 */
export class OrderCheck {
  /** The last name checked (the first is compared with the empty name, so an empty name fails). */
  #last = new Uint8Array(256);
  #lastLength = 0;

  check(batch: NameBatch): void {
    const bytes = batch.bytes;
    let previous: Uint8Array = this.#last;
    let previousStart = 0;
    let previousEnd = this.#lastLength;
    let start = 0;
    // Past the first name of an ascending batch, only its last name is looked for.
    const skipTo = batch.ascending === true && bytes.length > 1 ? bytes.lastIndexOf(NEWLINE, bytes.length - 2) : -1;
    for (let end = 0; end < bytes.length; end++) {
      if (bytes[end] !== NEWLINE) continue;
      if (compareBytes(previous, previousStart, previousEnd, bytes, start, end) >= 0) {
        const text = (from: Uint8Array, a: number, b: number) => Buffer.from(from.subarray(a, b)).toString('latin1');
        throw new Error(
          `Snapshot input is not sorted and distinct: "${text(bytes, start, end)}" after "${text(previous, previousStart, previousEnd)}"`,
        );
      }
      previous = bytes;
      previousStart = start;
      previousEnd = end;
      start = end + 1;
      if (skipTo >= end) {
        previousStart = skipTo + 1;
        previousEnd = bytes.length - 1;
        break;
      }
    }
    if (previous === bytes) {
      if (previousEnd - previousStart > this.#last.length) this.#last = new Uint8Array(previousEnd - previousStart);
      this.#last.set(bytes.subarray(previousStart, previousEnd));
      this.#lastLength = previousEnd - previousStart;
    }
  }
}

/**
 * Byte order of left[a, aEnd) and right[b, bEnd). A loop in JavaScript: names are short, and
 * Buffer#compare costs a native call with argument checks each time.
 */
export function compareBytes(
  left: Uint8Array,
  a: number,
  aEnd: number,
  right: Uint8Array,
  b: number,
  bEnd: number,
): number {
  const aLength = aEnd - a;
  const bLength = bEnd - b;
  const common = aLength < bLength ? aLength : bLength;
  for (let i = 0; i < common; i++) {
    const difference = left[a + i]! - right[b + i]!;
    if (difference !== 0) return difference;
  }
  return aLength - bLength;
}
