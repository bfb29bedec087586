import { type InsertQueryBuilder, type InsertResult, type Kysely, sql, type Updateable } from 'kysely';
import { isPostgres } from '../db/is-postgres.ts';
import type { DB, FeedDomainTable } from '../db/schema.ts';
import type { Evidence, LifecycleStatus, StoredStatus } from './states.ts';

export interface TransitionRecord {
  domain: string;
  from: LifecycleStatus;
  to: StoredStatus;
  at: number;
  evidence: Evidence;
  /** Identifies the piece of evidence: the same evidence applied twice records one transition. */
  evidenceKey: string;
  detail: Record<string, unknown>;
}

/** Appends a transition to the history; a repeat of the same evidence is ignored. */
export async function recordTransition(db: Kysely<DB>, transition: TransitionRecord): Promise<void> {
  await recordTransitions(db, [transition]);
}

/** Rows per INSERT on SQLite: 7 parameters each stays well under its parameter limit. */
const TRANSITIONS_PER_STATEMENT = 2000;

/**
 * Appends many transitions with a few multi-row statements; repeats of the same evidence are
 * ignored. On Postgres the rows travel as seven arrays (`INSERT … SELECT … FROM unnest(…)`), one
 * statement for any number of them.
 */
export async function recordTransitions(db: Kysely<DB>, transitions: readonly TransitionRecord[]): Promise<void> {
  if (transitions.length === 0) return;
  const rows = transitions.map((transition) => ({
    domain: transition.domain,
    from_status: transition.from,
    to_status: transition.to,
    at: transition.at,
    evidence: transition.evidence,
    evidence_key: transition.evidenceKey,
    detail: JSON.stringify(transition.detail),
  }));
  const insert = (query: InsertQueryBuilder<DB, 'domain_transitions', InsertResult>) =>
    query.onConflict((conflict) => conflict.columns(['domain', 'to_status', 'evidence_key']).doNothing()).execute();
  if (isPostgres(db)) {
    const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((row) => row[key]);
    await insert(
      db
        .insertInto('domain_transitions')
        .columns(['domain', 'from_status', 'to_status', 'at', 'evidence', 'evidence_key', 'detail'])
        .expression(
          sql`select * from unnest(${column('domain')}::text[], ${column('from_status')}::text[], ${column('to_status')}::text[], ${column('at')}::int8[], ${column('evidence')}::text[], ${column('evidence_key')}::text[], ${column('detail')}::text[])`,
        ),
    );
    return;
  }
  for (let start = 0; start < rows.length; start += TRANSITIONS_PER_STATEMENT) {
    await insert(db.insertInto('domain_transitions').values(rows.slice(start, start + TRANSITIONS_PER_STATEMENT)));
  }
}

/**
 * Moves one feed row from `transition.from` to `transition.to` and records why, in one
 * database transaction (with `alsoOnMove`'s writes, if any). The update only applies if the
 * row is still in `from` (another worker may have moved it meanwhile); returns whether it did.
 */
export async function applyTransition(
  db: Kysely<DB>,
  transition: TransitionRecord,
  changes: Updateable<FeedDomainTable>,
  alsoOnMove?: (trx: Kysely<DB>) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('feed_domains')
      .set({ ...changes, status: transition.to, status_since: transition.at, updated_at: transition.at })
      .where('domain', '=', transition.domain)
      .where('status', '=', transition.from)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await recordTransition(trx, transition);
    await alsoOnMove?.(trx);
    return true;
  });
}
