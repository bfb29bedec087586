import { matchRound, type RoundFilter, type RoundRow } from '../../apps/domain-intel/src/delivery/match-round.ts';

/**
 * One saved-filter matching round of `rows` against `filters` as the delivery job runs it
 * (matchRound), counted: how many filters got a batch and how many rows they matched in all.
 */
export function countedRound(
  rows: readonly RoundRow[],
  filters: readonly RoundFilter[],
  now: number,
  marginMs: number,
): { batches: number; rows: number } {
  let batches = 0;
  let matched = 0;
  for (const [, batch] of matchRound(rows, filters, now, marginMs)) {
    batches += 1;
    matched += batch.length;
  }
  return { batches, rows: matched };
}

/** `run`'s result and its wall time in seconds, after a full collection when the process has --expose-gc. */
export function timed<T>(run: () => T): { result: T; seconds: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const started = process.hrtime.bigint();
  const result = run();
  return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}
