/** The time each signal made here fires at, so a layer handed one can tell it is already the call's. */
const firesAt = new WeakMap<AbortSignal, number>();

/**
 * The signal of one call's deadline (epoch ms), made once where the call starts and handed down:
 * a layer that is given the call's signal with a deadline no later than its own uses that signal
 * as it is, so the whole call (the route, the availability service, the RDAP and WHOIS clients and
 * their transports) stops on one timer instead of one per layer. A signal that is not a deadline's
 * (a shutdown, a caller giving up) is joined with a timer of this deadline.
 */
export function deadlineSignal(deadline: number, signal?: AbortSignal): AbortSignal {
  const given = signal === undefined ? undefined : firesAt.get(signal);
  if (signal !== undefined && given !== undefined && given <= deadline) return signal;
  const timer = AbortSignal.timeout(Math.max(0, Math.ceil(deadline - Date.now())));
  const combined = signal === undefined ? timer : AbortSignal.any([timer, signal]);
  firesAt.set(combined, given === undefined ? deadline : Math.min(given, deadline));
  return combined;
}

/** Resolves when `signal` aborts (at once if it has): for racing work that may not listen to it. */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
