import { LRUCache } from 'lru-cache';

/** Where a block lives: which open index file, which block of it. */
export interface BlockAddress {
  read(block: number): Promise<Buffer>;
  block: number;
}

/**
 * Recently read index blocks of every TLD under one memory budget. Hot blocks (common
 * prefixes, the labels a suggestion run asks about in every TLD) are answered from memory;
 * concurrent misses on the same block share one read.
 */
export class BlockCache {
  readonly #cache: LRUCache<string, Buffer, BlockAddress>;

  constructor(maxBytes: number) {
    this.#cache = new LRUCache<string, Buffer, BlockAddress>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (block) => Math.max(1, block.length),
      fetchMethod: (_key, _stale, { context }) => context.read(context.block),
    });
  }

  get(fileId: number, address: BlockAddress): Promise<Buffer> {
    const key = `${fileId}:${address.block}`;
    const cached = this.#cache.get(key);
    if (cached) return Promise.resolve(cached);
    return this.#cache.fetch(key, { context: address }) as Promise<Buffer>;
  }

  /** Frees the blocks of a file that was closed. */
  forget(fileId: number): void {
    const prefix = `${fileId}:`;
    for (const key of this.#cache.keys()) if (key.startsWith(prefix)) this.#cache.delete(key);
  }

  get bytes(): number {
    return this.#cache.calculatedSize;
  }
}
