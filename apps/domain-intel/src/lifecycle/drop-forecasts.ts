import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

const MINUTE = 60_000;

/** The forecast a pending-delete row carried when its drop was verified. */
export interface PublishedForecast {
  domain: string;
  tld: string;
  expectedAt: number;
  earliest: number | null;
  latest: number | null;
  droppedAt: number;
}

/** Forecast error over a period: error = verified drop − forecast, in minutes (positive: the drop came late). */
export interface ForecastErrorSummary {
  drops: number;
  /** Drops verified before the forecast: how many, and the median and 90th percentile of how many minutes early. */
  early: ErrorSide;
  /** Drops verified at or after the forecast: how many, and the median and 90th percentile of how many minutes late. */
  late: ErrorSide;
  /** Share of the drops verified inside the published window (earliest ≤ drop ≤ latest); null without drops. */
  insideWindowShare: number | null;
}

export interface ErrorSide {
  count: number;
  p50Minutes: number | null;
  p90Minutes: number | null;
}

/**
 * The one owner of `drop_forecasts`: per verified drop, the forecast the feed published before
 * it (read from the row as the re-check found it, never recomputed after) and when RDAP verified it.
 */
export async function recordForecast(db: Kysely<DB>, forecast: PublishedForecast): Promise<void> {
  await db
    .insertInto('drop_forecasts')
    .values({
      domain: forecast.domain,
      tld: forecast.tld,
      expected_at: forecast.expectedAt,
      earliest_at: forecast.earliest,
      latest_at: forecast.latest,
      dropped_at: forecast.droppedAt,
    })
    .onConflict((conflict) => conflict.columns(['domain', 'dropped_at']).doNothing())
    .execute();
}

/** The forecast error of `tld`'s drops verified in [from, to]. */
export async function forecastErrorOf(
  db: Kysely<DB>,
  tld: string,
  from: number,
  to: number,
): Promise<ForecastErrorSummary> {
  const rows = await db
    .selectFrom('drop_forecasts')
    .select(['expected_at', 'earliest_at', 'latest_at', 'dropped_at'])
    .where('tld', '=', tld)
    .where('dropped_at', '>=', from)
    .where('dropped_at', '<=', to)
    .execute();
  return summariseErrors(
    rows.map((row) => ({
      expectedAt: Number(row.expected_at),
      earliest: row.earliest_at === null ? null : Number(row.earliest_at),
      latest: row.latest_at === null ? null : Number(row.latest_at),
      droppedAt: Number(row.dropped_at),
    })),
  );
}

export function summariseErrors(
  forecasts: readonly Pick<PublishedForecast, 'expectedAt' | 'earliest' | 'latest' | 'droppedAt'>[],
): ForecastErrorSummary {
  const errors = forecasts.map((forecast) => (forecast.droppedAt - forecast.expectedAt) / MINUTE);
  const inside = forecasts.filter(
    (forecast) =>
      forecast.earliest !== null &&
      forecast.latest !== null &&
      forecast.earliest <= forecast.droppedAt &&
      forecast.droppedAt <= forecast.latest,
  ).length;
  return {
    drops: forecasts.length,
    early: side(errors.filter((error) => error < 0).map((error) => -error)),
    late: side(errors.filter((error) => error >= 0)),
    insideWindowShare: forecasts.length === 0 ? null : round(inside / forecasts.length, 3),
  };
}

function side(minutes: number[]): ErrorSide {
  const sorted = [...minutes].sort((a, b) => a - b);
  return { count: sorted.length, p50Minutes: nearestRank(sorted, 0.5), p90Minutes: nearestRank(sorted, 0.9) };
}

/** The nearest-rank percentile (an observed value, never interpolated), to a tenth of a minute. */
function nearestRank(sorted: readonly number[], share: number): number | null {
  if (sorted.length === 0) return null;
  return round(sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!, 1);
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
