import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * Named leases in the database, so that however many API instances, workers and CLI runs
 * share it, one job runs at a time. A lease is taken atomically (one upsert that only
 * overwrites an expired lease), renewed while the job runs, and released at its end; a
 * crashed holder's lease simply expires.
 */
export class JobLeases {
  /** Identifies this process in `job_leases.owner` (shown when a job is skipped). */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async tryAcquire(name: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    const row = await this.db
      .insertInto('job_leases')
      .values({ name, owner: this.owner, acquired_at: now, expires_at: now + ttlMs })
      .onConflict((conflict) =>
        conflict
          .column('name')
          .doUpdateSet({ owner: this.owner, acquired_at: now, expires_at: now + ttlMs })
          .where('job_leases.expires_at', '<=', now),
      )
      .returning('owner')
      .executeTakeFirst();
    return row?.owner === this.owner;
  }

  async renew(name: string, ttlMs: number): Promise<void> {
    await this.db
      .updateTable('job_leases')
      .set({ expires_at: this.clock.now() + ttlMs })
      .where('name', '=', name)
      .where('owner', '=', this.owner)
      .execute();
  }

  async release(name: string): Promise<void> {
    await this.db.deleteFrom('job_leases').where('name', '=', name).where('owner', '=', this.owner).execute();
  }

  /** Leases whose holder stopped renewing them: it died mid-job, and the job should run again. */
  async lapsed(names: readonly string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await this.db
      .selectFrom('job_leases')
      .select('name')
      .where('name', 'in', names)
      .where('expires_at', '<=', this.clock.now())
      .execute();
    return rows.map((row) => row.name);
  }

  async holder(name: string): Promise<{ owner: string; expiresAt: number } | null> {
    const row = await this.db
      .selectFrom('job_leases')
      .select(['owner', 'expires_at'])
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? { owner: row.owner, expiresAt: row.expires_at } : null;
  }
}

export type LeasedOutcome<T> = { status: 'completed'; result: T } | { status: 'skipped'; heldBy: string | null };

/**
 * Runs `job` under the lease `name`, renewing it every quarter of `ttlMs` (real time) while it
 * runs, so a short lease only lapses when this process died; returns `skipped` when another
 * process holds it.
 */
export async function runLeased<T>(
  leases: JobLeases,
  name: string,
  ttlMs: number,
  job: () => Promise<T>,
): Promise<LeasedOutcome<T>> {
  if (!(await leases.tryAcquire(name, ttlMs))) {
    return { status: 'skipped', heldBy: (await leases.holder(name))?.owner ?? null };
  }
  const heartbeat = setInterval(() => {
    leases.renew(name, ttlMs).catch(() => {});
  }, ttlMs / 4);
  heartbeat.unref();
  try {
    return { status: 'completed', result: await job() };
  } finally {
    clearInterval(heartbeat);
    await leases.release(name);
  }
}
