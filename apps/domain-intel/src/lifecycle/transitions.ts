import type { Kysely, Updateable } from 'kysely';
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

/** Rows per INSERT: 7 parameters each stays well under SQLite's and Postgres' parameter limits. */
const TRANSITIONS_PER_STATEMENT = 2000;

/** Appends many transitions with a few multi-row statements; repeats of the same evidence are ignored. */
export async function recordTransitions(db: Kysely<DB>, transitions: readonly TransitionRecord[]): Promise<void> {
  for (let start = 0; start < transitions.length; start += TRANSITIONS_PER_STATEMENT) {
    await db
      .insertInto('domain_transitions')
      .values(
        transitions.slice(start, start + TRANSITIONS_PER_STATEMENT).map((transition) => ({
          domain: transition.domain,
          from_status: transition.from,
          to_status: transition.to,
          at: transition.at,
          evidence: transition.evidence,
          evidence_key: transition.evidenceKey,
          detail: JSON.stringify(transition.detail),
        })),
      )
      .onConflict((conflict) => conflict.columns(['domain', 'to_status', 'evidence_key']).doNothing())
      .execute();
  }
}

/**
 * Moves one feed row from `transition.from` to `transition.to` and records why, in one
 * database transaction. The update only applies if the row is still in `from` (another
 * worker may have moved it meanwhile); returns whether it did.
 */
export async function applyTransition(
  db: Kysely<DB>,
  transition: TransitionRecord,
  changes: Updateable<FeedDomainTable>,
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
    return true;
  });
}
