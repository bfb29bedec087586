import { errorMessage } from '@repo/server-kit';

/**
 * Reports failures that happen off the request path (bootstrap refresh, an unreachable
 * cache) as process warnings, at most once a minute per message, so a Redis outage does
 * not print one line per request.
 */
export function throttledWarnings(intervalMs = 60_000): (error: unknown) => void {
  const lastReported = new Map<string, number>();
  return (error) => {
    const message = errorMessage(error);
    const now = Date.now();
    if (now - (lastReported.get(message) ?? -Infinity) < intervalMs) return;
    lastReported.set(message, now);
    process.emitWarning(message, { code: 'DOMAIN_INTEL_BACKGROUND', detail: 'RDAP engine or availability cache' });
  };
}
