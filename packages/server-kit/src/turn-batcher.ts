interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result | PromiseLike<Result>): void;
  reject(error: unknown): void;
}

/**
 * Gathers what is asked for during one turn of the event loop, by key, and hands each key's
 * items to `run` once, at the end of the turn (setImmediate: after the poll phase has read every
 * request that was ready). Under load a server reads many requests per turn, so a write that every
 * call makes (a counter) becomes one statement per turn and key instead of one per call. `run`
 * answers the items in the order they were added; when it throws, every item of that batch fails
 * with its error, and an item answered with a rejected promise fails alone. Each caller waits for its batch, so whatever `run` commits is committed before
 * the caller goes on.
 */
export class TurnBatcher<Item, Result> {
  #pending = new Map<string, Array<Waiting<Item, Result>>>();
  #scheduled = false;

  constructor(private readonly run: (items: Item[]) => Promise<Array<Result | PromiseLike<Result>>>) {}

  add(key: string, item: Item): Promise<Result> {
    let batch = this.#pending.get(key);
    if (!batch) {
      batch = [];
      this.#pending.set(key, batch);
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flush);
    }
    const waiting = batch;
    return new Promise((resolve, reject) => {
      waiting.push({ item, resolve, reject });
    });
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    const batches = this.#pending;
    this.#pending = new Map();
    for (const batch of batches.values()) void this.#runBatch(batch);
  };

  async #runBatch(batch: Array<Waiting<Item, Result>>): Promise<void> {
    try {
      const results = await this.run(batch.map((waiting) => waiting.item));
      for (let i = 0; i < batch.length; i++) batch[i]!.resolve(results[i]!);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}
