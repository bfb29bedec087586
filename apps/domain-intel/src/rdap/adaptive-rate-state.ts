/**
 * The rate we allow ourselves at one RDAP host after its 429s (AIMD, as RFC 7480 §5.5 asks a
 * client to slow down): a 429 multiplies the rate by `decreaseFactor` (down to `minPerSecond`),
 * and every `recoveryMs` without a 429 adds a tenth of the configured rate back, never above it.
 *
 * One 429 event lowers the rate once: requests in flight when the rate fell were started at the
 * old rate, so their 429s carry the generation they saw and count only if it is still current
 * (the way TCP halves its window once per loss event, not once per lost packet).
 *
 * The same rules are written in Lua for Redis (`redis-adaptive-rate-store.ts`), where every
 * process applies them to one shared state atomically; the store test runs both on one scenario.
 */
export interface AdaptiveRateSettings {
  /** Multiplier of a host's rate at a 429 (RDAP_RATE_DECREASE_FACTOR). */
  decreaseFactor: number;
  /** Lowest rate a 429 takes a host to (RDAP_MIN_RATE_PER_SECOND; never above its configured rate). */
  minPerSecond: number;
  /** Time without a 429 after which the rate goes up one step (RDAP_RATE_RECOVERY_SECONDS). */
  recoveryMs: number;
}

/** A host's adapted rate. */
export interface AdaptedRate {
  perSecond: number;
  /** Counts the decreases: a 429 lowers the rate only if its request saw the current generation. */
  generation: number;
  /** When the last 429 came, or the last recovery step was due (epoch ms of the service's clock; 0: never slowed). */
  quietSince: number;
}

/** What to apply: the time, the host's configured rate, and for a 429 the generation its request saw. */
export interface RateEvent {
  now: number;
  configuredPerSecond: number;
  throttledAtGeneration?: number;
}

/** A host never slowed runs at its configured rate. */
export const unadaptedRate = (configuredPerSecond: number): AdaptedRate => ({
  perSecond: configuredPerSecond,
  generation: 0,
  quietSince: 0,
});

/** The step of one recovery: a tenth of the configured rate, at least 1/s (rates are whole requests a second). */
export const recoveryStepOf = (configuredPerSecond: number): number =>
  Math.max(1, Math.round(configuredPerSecond / 10));

/** The state after `event` (recovery steps due by `event.now` first, then the 429 if there is one). */
export function nextAdaptedRate(state: AdaptedRate, event: RateEvent, settings: AdaptiveRateSettings): AdaptedRate {
  const configured = event.configuredPerSecond;
  let { perSecond, generation, quietSince } = state;
  perSecond = Math.min(perSecond, configured);
  if (perSecond < configured) {
    const steps = Math.floor((event.now - quietSince) / settings.recoveryMs);
    if (steps > 0) {
      perSecond = Math.min(configured, perSecond + steps * recoveryStepOf(configured));
      quietSince += steps * settings.recoveryMs;
    }
  }
  if (event.throttledAtGeneration !== undefined) {
    if (event.throttledAtGeneration === generation) {
      const floor = Math.min(settings.minPerSecond, configured);
      perSecond = Math.max(floor, Math.floor(perSecond * settings.decreaseFactor));
      generation += 1;
    }
    quietSince = event.now;
  }
  return { perSecond, generation, quietSince };
}

/** Where hosts' adapted rates are kept: in this process, or in Redis for every process. */
export interface AdaptiveRateStore {
  /** Applies `event` to the host's state atomically; the rate before (as stored) and the state after. */
  apply(host: string, event: RateEvent): Promise<{ before: number; after: AdaptedRate }>;
  /** Hosts that have a state (were slowed at some time). */
  hosts(): Promise<string[]>;
}

/** The adapted rates of one process (no Redis). */
export class MemoryAdaptiveRateStore implements AdaptiveRateStore {
  readonly #states = new Map<string, AdaptedRate>();

  constructor(private readonly settings: AdaptiveRateSettings) {}

  async apply(host: string, event: RateEvent): Promise<{ before: number; after: AdaptedRate }> {
    const state = this.#states.get(host) ?? unadaptedRate(event.configuredPerSecond);
    const after = nextAdaptedRate(state, event, this.settings);
    if (!sameState(state, after)) this.#states.set(host, after);
    return { before: state.perSecond, after };
  }

  async hosts(): Promise<string[]> {
    return [...this.#states.keys()];
  }
}

const sameState = (a: AdaptedRate, b: AdaptedRate) =>
  a.perSecond === b.perSecond && a.generation === b.generation && a.quietSince === b.quietSince;
