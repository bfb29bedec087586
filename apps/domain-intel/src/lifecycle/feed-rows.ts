import { ANY_STATUSES } from '@repo/feed-index';
import type { Kysely, Updateable } from 'kysely';
import type { DB, FeedDomainTable } from '../db/schema.ts';
import { domainIn } from './domain-set.ts';

/**
 * The lifecycle owns `feed_domains` (it creates each row and moves it through its states); the
 * enrichment columns other modules fill in are written only through these functions, so every
 * statement that changes the table lives in this module.
 */

/** What enrichment may set on a feed row. */
export type EnrichmentColumns = Pick<
  Updateable<FeedDomainTable>,
  'first_archived_at' | 'da' | 'tf' | 'enrich_due_at' | 'updated_at'
>;

/** Rows whose enrichment is due at `now`, earliest first, at most `limit`. */
export function rowsDueForEnrichment(db: Kysely<DB>, now: number, limit: number) {
  return db
    .selectFrom('feed_domains')
    .select(['domain', 'first_archived_at'])
    .where('enrich_due_at', '<=', now)
    .where('status', 'in', ANY_STATUSES)
    .orderBy('enrich_due_at', 'asc')
    .orderBy('domain', 'asc')
    .limit(limit)
    .execute();
}

export async function setEnrichment(db: Kysely<DB>, domain: string, changes: EnrichmentColumns): Promise<void> {
  await db.updateTable('feed_domains').set(changes).where('domain', '=', domain).execute();
}

/** Sets DA and TF of one name if it is in the feed; returns whether it was. */
export async function setMetricsIfInFeed(
  db: Kysely<DB>,
  domain: string,
  metrics: { da: number | null; tf: number | null },
  now: number,
): Promise<boolean> {
  const updated = await db
    .updateTable('feed_domains')
    .set({ ...metrics, updated_at: now })
    .where('domain', '=', domain)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Rows whose alt-TLD demand predates the snapshots of `latest`, at most `limit`, with the figure they hold. */
export function rowsWithStaleAltTlds(db: Kysely<DB>, latest: string, limit: number) {
  return db
    .selectFrom('feed_domains')
    .select(['domain', 'label', 'tld', 'alt_tlds'])
    .where('status', 'in', ANY_STATUSES)
    .where((eb) => eb.or([eb('alt_tlds_date', 'is', null), eb('alt_tlds_date', '<', latest)]))
    .limit(limit)
    .execute();
}

/** One row's alt-TLD demand as of the latest snapshots. */
export interface AltTldDemand {
  domain: string;
  /** What the row holds now (`alt_tlds`, null before its first refresh). */
  previous: string | null;
  /** The other tracked TLDs that hold the label, comma-separated, often "". */
  others: string;
}

/** Domains per `UPDATE … WHERE domain IN (…)` of the alt-TLD refresh: under both databases' parameter limits. */
const ALT_TLD_ROWS_PER_STATEMENT = 5000;

/**
 * Sets alt-TLD demand as of `latest`, set-based, in one transaction. Most rows keep the figure
 * they had (a label rarely enters or leaves another TLD in a day): those only get the new
 * `alt_tlds_date`, a column no index holds, so the row is rewritten without touching any of
 * the feed's indexes (on Postgres a HOT update, room for it kept by the table's fillfactor)
 * and `updated_at` stays, as nothing a reader or a saved filter sees has changed. The rest:
 * one UPDATE per distinct outcome and slice.
 */
export async function setAltTldDemand(
  db: Kysely<DB>,
  latest: string,
  now: number,
  demand: readonly AltTldDemand[],
): Promise<void> {
  const unchanged: string[] = [];
  const byOutcome = new Map<string, string[]>();
  for (const { domain, previous, others } of demand) {
    if (previous === others) unchanged.push(domain);
    else {
      const domains = byOutcome.get(others);
      if (domains) domains.push(domain);
      else byOutcome.set(others, [domain]);
    }
  }
  await db.transaction().execute(async (trx) => {
    for (const slice of slices(unchanged)) {
      await trx.updateTable('feed_domains').set({ alt_tlds_date: latest }).where(domainIn(trx, slice)).execute();
    }
    for (const [others, domains] of byOutcome) {
      for (const slice of slices(domains)) {
        await trx
          .updateTable('feed_domains')
          .set({
            alt_tld_count: others === '' ? 0 : others.split(',').length,
            alt_tlds: others,
            alt_tlds_date: latest,
            updated_at: now,
          })
          .where(domainIn(trx, slice))
          .execute();
      }
    }
  });
}

function* slices(domains: readonly string[]): Generator<readonly string[]> {
  for (let start = 0; start < domains.length; start += ALT_TLD_ROWS_PER_STATEMENT) {
    yield domains.slice(start, start + ALT_TLD_ROWS_PER_STATEMENT);
  }
}
