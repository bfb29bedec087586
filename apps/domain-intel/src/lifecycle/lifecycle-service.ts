import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { RdapClient } from '../rdap/types.ts';
import { BatchTimeLearner } from './batch-time-learner.ts';
import { LearnedBatchTimes } from './learned-batch-times.ts';
import { type RecheckOptions, type RecheckResult, recheckDueCandidates } from './rdap-recheck.ts';
import { applyZoneDiff, type ZoneChange, type ZoneDiffResult } from './zone-evidence.ts';

export interface TransitionView {
  from: string;
  to: string;
  at: string;
  evidence: string;
  detail: unknown;
}

/** The lifecycle as the jobs use it: zone evidence, RDAP re-checks, and a domain's history. */
export class LifecycleService {
  /** Each registry's batch time as its answers show it, for TLDs not configured. */
  readonly #learnedBatchTimes = new BatchTimeLearner();
  /** The same, kept in the database across restarts: read before the first re-check run. */
  readonly #savedBatchTimes: LearnedBatchTimes;
  #saved: Promise<Map<string, number>> | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly rdap: RdapClient,
    private readonly defaults: Omit<RecheckOptions, 'onProgress' | 'deadline'>,
  ) {
    this.#savedBatchTimes = new LearnedBatchTimes(db, clock);
  }

  applyZoneDiff(
    diff: { tld: string; fromDate: string; toDate: string; changes: AsyncIterable<ZoneChange> },
    onProgress?: (processed: number) => void,
  ): Promise<ZoneDiffResult> {
    return applyZoneDiff(this.db, this.clock, diff, onProgress);
  }

  async recheckDue(options: Partial<RecheckOptions> = {}): Promise<RecheckResult> {
    const saved = await this.#readSavedBatchTimes();
    const settings = { learnedBatchTimes: this.#learnedBatchTimes, ...this.defaults, ...options };
    const result = await recheckDueCandidates(this.db, this.clock, this.rdap, settings);
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
