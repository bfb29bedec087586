import { randomBytes } from 'node:crypto';
import type { Availability, BulkCheck, BulkCheckStatus } from '@repo/contracts/domain-intel';
import bs58 from 'bs58';
import type { Kysely, Selectable } from 'kysely';
import type { BulkCheckTable, DB } from '../db/schema.ts';
import type { BulkEntry } from './bulk-input.ts';

/** Rows per insert: 4 parameters each, well under SQLite's and PostgreSQL's limits. */
const INSERT_ROWS = 500;

export interface PendingItem {
  position: number;
  domain: string;
}

/** The tables of bulk jobs (bulk/ owns them): jobs, their items, each item's result as soon as it is decided. */
export class BulkCheckStore {
  constructor(private readonly db: Kysely<DB>) {}

  /** A queued job and its items in one transaction: a job is never seen without all of them. */
  async create(accountId: string, entries: readonly BulkEntry[], duplicates: number, now: number): Promise<string> {
    const id = `bulk_${bs58.encode(randomBytes(12))}`;
    const invalid = entries.filter((entry) => entry.invalid).length;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('bulk_checks')
        .values({
          id,
          account_id: accountId,
          status: 'queued',
          total: entries.length,
          done: invalid,
          invalid,
          duplicates,
          created_at: now,
          started_at: null,
          finished_at: null,
          error: null,
        })
        .execute();
      for (let start = 0; start < entries.length; start += INSERT_ROWS) {
        await trx
          .insertInto('bulk_check_items')
          .values(
            entries.slice(start, start + INSERT_ROWS).map((entry, i) => ({
              job_id: id,
              position: start + i,
              domain: entry.domain,
              status: entry.invalid ? 'invalid' : null,
              result: entry.invalid ? JSON.stringify(entry.invalid) : null,
            })),
          )
          .execute();
      }
    });
    return id;
  }

  async get(accountId: string, id: string): Promise<BulkCheck | undefined> {
    const row = await this.db
      .selectFrom('bulk_checks')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row && toBulkCheck(row);
  }

  async list(accountId: string, limit: number, offset: number): Promise<{ jobs: BulkCheck[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('bulk_checks')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db
        .selectFrom('bulk_checks')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
    ]);
    return { jobs: rows.map(toBulkCheck), total: Number(count.n) };
  }

  /** Cancels a queued or running job; false when it was already finished. */
  async cancel(accountId: string, id: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('bulk_checks')
      .set({ status: 'cancelled', finished_at: now })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The job a worker should work next: one it was working (resumed first), else the oldest queued. */
  async next(): Promise<{ id: string; accountId: string; status: BulkCheckStatus } | undefined> {
    const row = await this.db
      .selectFrom('bulk_checks')
      .select(['id', 'account_id', 'status'])
      .where('status', 'in', ['running', 'queued'])
      .orderBy('status', 'desc') // running before queued
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(1)
      .executeTakeFirst();
    return row && { id: row.id, accountId: row.account_id, status: row.status as BulkCheckStatus };
  }

  /** Marks a queued job running; its done count recounted from the items (a resumed job's may lag). */
  async start(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('bulk_checks')
      .set((eb) => ({
        status: 'running',
        started_at: eb.fn.coalesce('started_at', eb.val(now)),
        done: eb
          .selectFrom('bulk_check_items')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .where('job_id', '=', id)
          .where('result', 'is not', null),
      }))
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .execute();
  }

  async status(id: string): Promise<BulkCheckStatus | undefined> {
    const row = await this.db.selectFrom('bulk_checks').select('status').where('id', '=', id).executeTakeFirst();
    return row?.status as BulkCheckStatus | undefined;
  }

  /** Undecided items after `position`, in order. */
  pending(id: string, after: number, limit: number): Promise<PendingItem[]> {
    return this.db
      .selectFrom('bulk_check_items')
      .select(['position', 'domain'])
      .where('job_id', '=', id)
      .where('position', '>', after)
      .where('result', 'is', null)
      .orderBy('position', 'asc')
      .limit(limit)
      .execute();
  }

  /** One item's result, written once: a second writer (a resumed job) changes nothing. */
  async decide(id: string, position: number, result: Availability): Promise<boolean> {
    const written = await this.db
      .updateTable('bulk_check_items')
      .set({ status: result.status, result: JSON.stringify(result) })
      .where('job_id', '=', id)
      .where('position', '=', position)
      .where('result', 'is', null)
      .executeTakeFirst();
    return Number(written.numUpdatedRows) > 0;
  }

  async addDone(id: string, count: number): Promise<void> {
    if (count === 0) return;
    await this.db
      .updateTable('bulk_checks')
      .set((eb) => ({ done: eb('done', '+', count) }))
      .where('id', '=', id)
      .execute();
  }

  /** Items per status, for the completion event. */
  async statusCounts(id: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('bulk_check_items')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('job_id', '=', id)
      .groupBy('status')
      .execute();
    return new Map(rows.map((row) => [row.status ?? 'pending', Number(row.n)]));
  }

  /** Ends a running job (done or failed); a job cancelled meanwhile stays cancelled. */
  async finish(id: string, status: 'done' | 'failed', now: number, error?: string): Promise<boolean> {
    const result = await this.db
      .updateTable('bulk_checks')
      .set({ status, finished_at: now, error: error ?? null })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The decided items of a job after `position`, in order: each result's JSON as written. */
  results(id: string, after: number, limit: number): Promise<Array<{ position: number; result: string }>> {
    return this.db
      .selectFrom('bulk_check_items')
      .select(['position', 'result'])
      .where('job_id', '=', id)
      .where('position', '>', after)
      .where('result', 'is not', null)
      .$narrowType<{ result: string }>()
      .orderBy('position', 'asc')
      .limit(limit)
      .execute();
  }
}

const iso = (time: number | null) => (time === null ? null : new Date(Number(time)).toISOString());

function toBulkCheck(row: Selectable<BulkCheckTable>): BulkCheck {
  return {
    id: row.id,
    status: row.status as BulkCheckStatus,
    total: row.total,
    done: row.done,
    invalid: row.invalid,
    duplicates: row.duplicates,
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    ...(row.error ? { error: row.error } : {}),
  };
}
