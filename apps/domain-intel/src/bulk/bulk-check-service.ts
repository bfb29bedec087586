import type { Availability, BulkCheck, EventData } from '@repo/contracts/domain-intel';
import type { Clock } from '@repo/server-kit';
import { errorMessage } from '@repo/server-kit';
import type { Caller } from '../accounts/caller.ts';
import type { AvailabilityService } from '../availability/availability-service.ts';
import { appError } from '../error-catalogue.ts';
import type { QuotaService } from '../quota/quota-service.ts';
import type { BulkCheckStore } from './bulk-check-store.ts';
import { bulkListOf } from './bulk-input.ts';
import { CSV_COLUMNS, toCsvRow } from './results-csv.ts';

/** Undecided items read per round; the job's status (a cancel) is read between rounds. */
const ROUND_ITEMS = 64;
/**
 * Names asked at once within a round. The registry engine's per-server limits decide the real
 * pace: background lookups wait for their share of each server's rate, behind interactive ones.
 */
const CONCURRENCY = 16;
/**
 * How long one name may wait for its registry. Background lookups queue behind the interactive
 * share of a busy server's rate, so this is far longer than an interactive check's deadline: a
 * name that waited is not `unknown` because of our own queue.
 */
const ITEM_DEADLINE_MS = 120_000;
/** Results read per page while streaming a download. */
const RESULT_PAGE = 1_000;

export type ResultsFormat = 'ndjson' | 'csv';

export interface BulkRunReport {
  jobs: number;
  items: number;
}

export interface BulkCheckDependencies {
  store: BulkCheckStore;
  /** An availability service whose registry lookups are background traffic. */
  availability: Pick<AvailabilityService, 'check'>;
  quota: Pick<QuotaService, 'consumeWhole' | 'refund' | 'retryAfterSeconds'>;
  clock: Clock;
  /** Records the completion event for the account's webhooks (awaited: it is written before the job is done). */
  emitCompleted: (accountId: string, data: EventData<'bulk_check.completed'>, dedupeKey: string) => Promise<void>;
}

/**
 * Bulk availability jobs: a list of up to 10,000 names admitted whole against the daily quota
 * (one call per distinct valid name, or 429 with nothing counted), then worked by the job runner
 * one item at a time through the same availability rules as /v1/check, each result written as it
 * is decided. A worker that dies leaves the undecided items; the next run resumes there.
 */
export class BulkCheckService {
  constructor(private readonly deps: BulkCheckDependencies) {}

  async submit(caller: Caller, names: readonly string[]): Promise<BulkCheck> {
    const now = this.deps.clock.now();
    const list = bulkListOf(names, new Date(now).toISOString());
    if (list.valid > 0) {
      const quota = await this.deps.quota.consumeWhole(caller, list.valid);
      if (!quota.allowed) {
        throw appError(
          'quota_exceeded',
          `This job needs ${list.valid} calls of your daily quota and ${quota.remaining ?? 0} are left; nothing ` +
            `was counted. Send a shorter list, or wait for the reset at ${new Date(quota.resetsAt).toISOString()}.`,
          {
            headers: { 'Retry-After': String(this.deps.quota.retryAfterSeconds()) },
            details: {
              limit: quota.limit,
              needed: list.valid,
              remaining: quota.remaining,
              resets_at: new Date(quota.resetsAt).toISOString(),
            },
          },
        );
      }
    }
    let id: string;
    try {
      id = await this.deps.store.create(caller.accountId, list.entries, list.duplicates, now);
    } catch (error) {
      // The job was not stored: its calls are given back (one unit each, a rare path).
      for (let i = 0; i < list.valid; i++) await this.deps.quota.refund(caller, now).catch(() => {});
      throw error;
    }
    return (await this.deps.store.get(caller.accountId, id))!;
  }

  async get(accountId: string, id: string): Promise<BulkCheck> {
    const job = await this.deps.store.get(accountId, id);
    if (!job) throw notFound();
    return job;
  }

  list(accountId: string, limit: number, offset: number): Promise<{ jobs: BulkCheck[]; total: number }> {
    return this.deps.store.list(accountId, limit, offset);
  }

  async cancel(accountId: string, id: string): Promise<BulkCheck> {
    const job = await this.get(accountId, id);
    if (!(await this.deps.store.cancel(accountId, id, this.deps.clock.now()))) {
      throw appError('bulk_check_finished', `The bulk check ${id} is already ${job.status}.`, {
        details: { status: job.status },
      });
    }
    return this.get(accountId, id);
  }

  /** The decided items in list order, one line each (a header first in CSV). Checks the job is the account's first. */
  async results(accountId: string, id: string, format: ResultsFormat): Promise<AsyncGenerator<string>> {
    await this.get(accountId, id);
    const { store } = this.deps;
    return (async function* lines() {
      if (format === 'csv') yield `${CSV_COLUMNS.join(',')}\n`;
      let after = -1;
      for (;;) {
        const page = await store.results(id, after, RESULT_PAGE);
        if (page.length === 0) return;
        after = page.at(-1)!.position;
        let chunk = '';
        for (const { result } of page) {
          chunk += format === 'csv' ? `${toCsvRow(JSON.parse(result) as Availability)}\n` : `${result}\n`;
        }
        yield chunk;
      }
    })();
  }

  /** Works every queued job (and resumes one a dead worker left running) until none is left. */
  async run(): Promise<BulkRunReport> {
    const report: BulkRunReport = { jobs: 0, items: 0 };
    for (;;) {
      const job = await this.deps.store.next();
      if (!job) return report;
      report.jobs++;
      report.items += await this.#work(job.id, job.accountId);
    }
  }

  async #work(id: string, accountId: string): Promise<number> {
    const { store, clock } = this.deps;
    await store.start(id, clock.now());
    let decided = 0;
    try {
      let after = -1;
      for (;;) {
        if ((await store.status(id)) !== 'running') return decided;
        const items = await store.pending(id, after, ROUND_ITEMS);
        if (items.length === 0) break;
        after = items.at(-1)!.position;
        let next = 0;
        const worker = async () => {
          while (next < items.length) {
            const item = items[next++]!;
            const [result] = await this.deps.availability.check([item.domain], {
              deadline: Date.now() + ITEM_DEADLINE_MS,
            });
            // The progress moves with each item (a round at a slow registry's background rate can
            // take minutes); a crash between the two writes is recounted when the job resumes.
            if (await store.decide(id, item.position, result!)) {
              await store.addDone(id, 1);
              decided++;
            }
          }
        };
        await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
      }
      if ((await store.status(id)) !== 'running') return decided;
      const counts = await store.statusCounts(id);
      const count = (...statuses: string[]) => statuses.reduce((sum, status) => sum + (counts.get(status) ?? 0), 0);
      await this.deps.emitCompleted(
        accountId,
        {
          id,
          total: count('available', 'registered', 'reserved', 'unknown', 'invalid', 'pending'),
          available: count('available'),
          registered: count('registered', 'reserved'),
          unknown: count('unknown'),
          invalid: count('invalid'),
          results_url: `/account/bulk-checks/${id}/results`,
        },
        `bulk_check.completed:${id}`,
      );
      await store.finish(id, 'done', clock.now());
      return decided;
    } catch (error) {
      // Availability answers every name (a registry's failure is an `unknown` item), so an error
      // here is our own (storage): the job is marked failed with it rather than retried forever.
      const message = errorMessage(error);
      await store.finish(id, 'failed', clock.now(), `The job stopped on an internal error: ${message}`);
      throw error;
    }
  }
}

const notFound = () => appError('bulk_check_not_found', 'The account has no bulk check with this id.');
