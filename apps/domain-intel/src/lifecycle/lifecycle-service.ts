import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { RdapClient } from '../rdap/types.ts';
import { BatchCalendar, type BatchDay, SPREAD_DAYS } from './batch-calendar.ts';
import { BatchTimeLearner } from './batch-time-learner.ts';
import { type ForecastErrorSummary, forecastErrorOf } from './drop-forecasts.ts';
import { LearnedBatchTimes } from './learned-batch-times.ts';
import { type RecheckOptions, type RecheckResult, recheckDueCandidates } from './rdap-recheck.ts';
import { RegistryRateEstimates } from './registry-rate-estimates.ts';
import { estimateRegistryRates, type RegistryRateEstimate, type RegistryRateOf } from './registry-rate-plan.ts';
import { applyZoneDiff, type ZoneChange, type ZoneDiffResult } from './zone-evidence.ts';

export interface TransitionView {
  from: string;
  to: string;
  at: string;
  evidence: string;
  detail: unknown;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Days of batch calendar and forecast error GET /v1/tlds/{tld}/drops shows. */
export const DROP_REPORT_DAYS = 30;

/** A TLD's batch time, its calendar and its forecasts' error (GET /v1/tlds/{tld}/drops). */
export interface DropReport {
  /** ms after 00:00 UTC; null: neither configured nor learned yet. */
  batchTimeOfDay: number | null;
  /** configured (RDAP_PURGE_TIMES), learned (from the registry's answers), or null. */
  batchTimeSource: 'configured' | 'learned' | null;
  /** The last DROP_REPORT_DAYS days' calendar, oldest first. */
  calendar: BatchDay[];
  /** The forecast error of the drops verified in the last DROP_REPORT_DAYS days. */
  error: ForecastErrorSummary;
  from: number;
  to: number;
}
/** The per-TLD budget of `auto` when the TLD's registry host is not known (no bootstrap, or no engine to ask). */
const AUTO_BUDGET_WITHOUT_RATE = 500;

/** How the lifecycle re-checks: RecheckOptions, with the budget per TLD also `auto` and what it needs to size it. */
export interface LifecycleSettings extends Omit<RecheckOptions, 'onProgress' | 'deadline' | 'perTldBudget'> {
  /**
   * Most lookups per TLD in one run; `auto`: what the TLD's registry host allows in the run's time
   * (its rate × the run's window), so the rate and the run's deadline bound a run, not a count.
   */
  perTldBudget: number | 'auto';
  /** The registry host and allowed rate of a TLD (the RDAP engine's); without it no rate is estimated. */
  registryRateOf?: RegistryRateOf;
  /** Where a registry host needing more than its rate is reported, once per run. */
  log?: { warn(fields: Record<string, unknown>, message: string): void };
  /** Days a new registration stays in the feed (zone-evidence.ts; default DEFAULT_NEW_RETENTION_DAYS). */
  newRetentionDays?: number;
}

export type RecheckRunOptions = Partial<LifecycleSettings> & Pick<RecheckOptions, 'onProgress' | 'deadline'>;

/** The lifecycle as the jobs use it: zone evidence, RDAP re-checks, and a domain's history. */
export class LifecycleService {
  /** Each registry's batch time as its answers show it, for TLDs not configured. */
  readonly #learnedBatchTimes = new BatchTimeLearner();
  /** The same, kept in the database across restarts: read before the first re-check run. */
  readonly #savedBatchTimes: LearnedBatchTimes;
  #saved: Promise<Map<string, number>> | undefined;
  /** Each TLD's batch calendar: what the learner saw, per day. */
  readonly #calendar: BatchCalendar;
  /** What each registry host's due drop checks needed at the last run (read by /metrics). */
  readonly rateEstimates: RegistryRateEstimates;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly rdap: RdapClient,
    private readonly defaults: LifecycleSettings,
  ) {
    this.#savedBatchTimes = new LearnedBatchTimes(db, clock);
    this.#calendar = new BatchCalendar(db);
    this.rateEstimates = new RegistryRateEstimates(db, clock);
  }

  applyZoneDiff(
    diff: { tld: string; fromDate: string; toDate: string; changes: AsyncIterable<ZoneChange> },
    onProgress?: (processed: number) => void,
  ): Promise<ZoneDiffResult> {
    const { newRetentionDays } = this.defaults;
    return applyZoneDiff(
      this.db,
      this.clock,
      diff,
      onProgress,
      newRetentionDays === undefined ? {} : { newRetentionDays },
    );
  }

  async recheckDue(options: RecheckRunOptions = {}): Promise<RecheckResult> {
    const saved = await this.#readSavedBatchTimes();
    const {
      perTldBudget,
      registryRateOf,
      log,
      newRetentionDays: _zoneOnly,
      ...settings
    } = {
      learnedBatchTimes: this.#learnedBatchTimes,
      ...this.defaults,
      ...options,
    };
    const now = this.clock.now();
    // The run's window in the context's clock (the deadline is wall-clock time).
    const windowMs = settings.deadline === undefined ? HOUR : Math.max(0, settings.deadline - Date.now());
    // A run with a deadline (the hourly job's) makes the purge checks falling due within its
    // window when they fall due, instead of leaving them to the next run half an hour later.
    const lookAheadMs = settings.lookAheadMs ?? (settings.deadline === undefined ? 0 : windowMs);
    const estimates = registryRateOf
      ? await estimateRegistryRates(this.db, {
          tlds: settings.tlds,
          now,
          windowEndsAt: now + windowMs,
          lookAheadMs,
          registryRateOf,
        })
      : [];
    if (estimates.length > 0) {
      await this.rateEstimates.save(estimates);
      for (const estimate of estimates) warnWhenShort(estimate, log);
    }
    const budgets = new Map(
      settings.tlds.map((tld) => {
        if (perTldBudget !== 'auto') return [tld, perTldBudget];
        const host = estimates.find((estimate) => estimate.tlds.includes(tld));
        return [tld, host ? Math.ceil((host.allowedPerSecond * windowMs) / 1000) : AUTO_BUDGET_WITHOUT_RATE];
      }),
    );
    const batchDays = await this.#calendar.days(settings.tlds, now - SPREAD_DAYS * DAY);
    const result = await recheckDueCandidates(this.db, this.clock, this.rdap, {
      ...settings,
      batchDays,
      lookAheadMs,
      perTldBudget: (tld) => budgets.get(tld) ?? AUTO_BUDGET_WITHOUT_RATE,
    });
    await this.#calendar.record(this.#learnedBatchTimes.takeDays());
    // Saved when learning moved it, so a restart plans from it at once.
    for (const tld of settings.tlds) {
      const learned = this.#learnedBatchTimes.batchTimeOf(tld);
      if (learned === null || learned === saved.get(tld)) continue;
      await this.#savedBatchTimes.save(tld, learned);
      saved.set(tld, learned);
    }
    return result;
  }

  /** The batch times saved by earlier runs (of this process or before a restart), read once. */
  #readSavedBatchTimes(): Promise<Map<string, number>> {
    this.#saved ??= this.#savedBatchTimes.load().then(
      (saved) => {
        for (const [tld, time] of saved) this.#learnedBatchTimes.remember(tld, time);
        return saved;
      },
      (error: unknown) => {
        this.#saved = undefined; // the next run reads again
        throw error;
      },
    );
    return this.#saved;
  }

  /** `tld`'s batch time, its calendar and the error of its forecasts over the last DROP_REPORT_DAYS days. */
  async dropReport(tld: string): Promise<DropReport> {
    const to = this.clock.now();
    const from = to - DROP_REPORT_DAYS * DAY;
    const configured = this.defaults.batchTimes?.[tld];
    // Read each time: the process that learns it (the worker's re-check job) may be another one.
    const learned = (await this.#savedBatchTimes.load()).get(tld) ?? this.#learnedBatchTimes.batchTimeOf(tld);
    const calendar = (await this.#calendar.days([tld], from)).get(tld) ?? [];
    return {
      batchTimeOfDay: configured ?? learned,
      batchTimeSource: configured !== undefined ? 'configured' : learned !== null ? 'learned' : null,
      calendar,
      error: await forecastErrorOf(this.db, tld, from, to),
      from,
      to,
    };
  }

  /** The last run's estimate per registry host. */
  registryRateEstimates(): Promise<RegistryRateEstimate[]> {
    return this.rateEstimates.latest();
  }

  /** The current lifecycle status of those of these names the lifecycle follows (feed rows). */
  async statusesOf(domains: readonly string[]): Promise<Map<string, string>> {
    const statuses = new Map<string, string>();
    for (let i = 0; i < domains.length; i += 500) {
      const rows = await this.db
        .selectFrom('feed_domains')
        .select(['domain', 'status'])
        .where('domain', 'in', domains.slice(i, i + 500))
        .execute();
      for (const row of rows) statuses.set(row.domain, row.status);
    }
    return statuses;
  }

  async history(domain: string): Promise<TransitionView[]> {
    const rows = await this.db
      .selectFrom('domain_transitions')
      .select(['from_status', 'to_status', 'at', 'evidence', 'detail'])
      .where('domain', '=', domain)
      .orderBy('at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map((row) => ({
      from: row.from_status,
      to: row.to_status,
      at: new Date(row.at).toISOString(),
      evidence: row.evidence,
      detail: row.detail ? JSON.parse(row.detail) : null,
    }));
  }
}

/**
 * Tells the operator when a registry host needs more than its allowed rate to verify the due
 * drops within an hour of their purge (the run still goes at the allowed rate; the rest waits).
 */
function warnWhenShort(estimate: RegistryRateEstimate, log: LifecycleSettings['log']): void {
  if (!log || estimate.neededPerSecond <= estimate.allowedPerSecond) return;
  const needed = Number(estimate.neededPerSecond.toPrecision(3));
  log.warn(
    {
      host: estimate.host,
      tlds: estimate.tlds,
      needed_per_second: needed,
      allowed_per_second: estimate.allowedPerSecond,
      purge_checks: estimate.purgeChecks,
    },
    `RDAP plan: ${estimate.host} (.${estimate.tlds.join(', .')}) needs ~${needed} lookups/s to verify ` +
      `${estimate.purgeChecks} due drops within an hour of their purge, and is allowed ` +
      `${estimate.allowedPerSecond}/s (its rate less the interactive share, lowered after 429s): raise its rate in ` +
      'RDAP_HOST_RATES if the registry allows it, ' +
      'or those drops are verified later.',
  );
}
