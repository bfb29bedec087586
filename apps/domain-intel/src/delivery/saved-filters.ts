import type { SavedFilter } from '@repo/contracts/domain-intel';
import { FEED_FILTER_PARAMETERS } from '@repo/contracts/domain-intel';
import type { FeedFilters } from '@repo/feed-index';
import type { AppError, Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import { lockAccount } from '../accounts/accounts-repository.ts';
import type { Caller } from '../accounts/caller.ts';
import { newId } from '../accounts/ids.ts';
import { planRequired } from '../accounts/plan-required.ts';
import type { Plan } from '../accounts/plans.ts';
import { normalizeBrandTerm } from '../brand/brand-term.ts';
import type { DB } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { parseFeedFilters } from '../feed/feed-params.ts';
import { validName } from './names.ts';

/** A filter the matching round runs. */
export interface ActiveFilter {
  id: string;
  accountId: string;
  name: string;
  filters: FeedFilters;
  /** The brand term whose lookalikes it delivers (null: a plain filter). */
  brand: string | null;
  matchedThrough: number;
  nextSequence: number;
}

export type FilterInput = string | Record<string, unknown>;

/**
 * A saved filter as listed, and as its owner typed it (`as_typed`, the canonical `filter` when it
 * was given as an object): the dashboard shows what was typed; the API answers the listed record.
 */
export interface SavedFilterView extends SavedFilter {
  as_typed: string;
}

const KNOWN = new Set<string>(FEED_FILTER_PARAMETERS);

/**
 * Saved filters ("custom filters"): owner of `saved_filters` and `saved_filter_targets`.
 * A filter is stored as its canonical query string and parsed with the feed's own parser,
 * so it means exactly what the same query on /v1/domains means.
 */
export class SavedFilters {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly trackedTlds: readonly string[],
  ) {}

  /** Validates a filter (query string or object of parameters) and gives its canonical form. */
  canonical(input: FilterInput): { query: string; filters: FeedFilters } {
    const pairs =
      typeof input === 'string'
        ? [...new URLSearchParams(input.startsWith('?') ? input.slice(1) : input)]
        : Object.entries(input).map(([name, value]) => [name, value === null ? '' : String(value)] as const);
    const query: Record<string, string> = {};
    for (const [name, value] of pairs) {
      if (!KNOWN.has(name)) {
        throw appError(
          'unknown_filter_parameter',
          `"${name}" is not a feed filter; use ${FEED_FILTER_PARAMETERS.join(', ')}.`,
          {
            details: {
              parameter: name,
            },
          },
        );
      }
      if (Object.hasOwn(query, name)) {
        throw appError('duplicate_filter_parameter', `${name} is given twice; give each filter once.`, {
          details: {
            parameter: name,
          },
        });
      }
      query[name] = value;
    }
    const filters = parseFeedFilters(query, this.trackedTlds);
    const ordered = FEED_FILTER_PARAMETERS.filter((name) => query[name] !== undefined).map((name) => [
      name,
      query[name]!,
    ]);
    return { query: new URLSearchParams(ordered).toString(), filters };
  }

  /** Refuses delivering a filter's batches to targets on a plan without them (the dashboard only). */
  assertDeliveryAllowed(plan: Caller['plan']): void {
    if (!plan.features.deliveryTargets) {
      throw planRequired(
        'deliveryTargets',
        plan,
        'Delivering saved filters to webhooks, e-mail and SFTP is part of the Enterprise plan; without targets they show in the dashboard.',
      );
    }
  }

  async create(
    caller: Pick<Caller, 'accountId' | 'plan'>,
    input: { name: unknown; filter: FilterInput; brand?: unknown; targetIds?: readonly string[] },
  ): Promise<SavedFilterView> {
    const name = validName(input.name, 'filter');
    const { query } = this.canonical(input.filter);
    const brand = input.brand === undefined || input.brand === null ? null : normalizeBrandTerm(input.brand);
    const asTyped = typeof input.filter === 'string' ? input.filter.trim() : null;
    const targetIds = [...new Set(input.targetIds ?? [])];
    if (targetIds.length > 0) this.assertDeliveryAllowed(caller.plan);
    const now = this.clock.now();
    const id = newId('flt');
    await this.db.transaction().execute(async (trx) => {
      await lockAccount(trx, caller.accountId);
      const owned = await this.#countOwned(trx, caller.accountId);
      if (owned >= caller.plan.maxSavedFilters)
        throw limitReached('saved filters', caller.plan, caller.plan.maxSavedFilters);
      if (
        await trx
          .selectFrom('saved_filters')
          .select('id')
          .where('account_id', '=', caller.accountId)
          .where('name', '=', name)
          .executeTakeFirst()
      ) {
        throw appError('filter_name_taken', `You already have a filter named "${name}".`);
      }
      if (targetIds.length > 0) {
        const found = await trx
          .selectFrom('delivery_targets')
          .select('id')
          .where('account_id', '=', caller.accountId)
          .where('id', 'in', targetIds)
          .execute();
        const missing = targetIds.filter((targetId) => !found.some((row) => row.id === targetId));
        if (missing.length > 0) {
          throw appError('target_not_found', `No delivery target ${missing.join(', ')} on your account.`, {
            details: { target_ids: missing },
          });
        }
      }
      await trx
        .insertInto('saved_filters')
        .values({
          id,
          account_id: caller.accountId,
          name,
          query,
          as_typed: asTyped,
          brand,
          created_at: now,
          matched_through: now,
        })
        .execute();
      if (targetIds.length > 0) {
        await trx
          .insertInto('saved_filter_targets')
          .values(targetIds.map((targetId) => ({ filter_id: id, target_id: targetId })))
          .execute();
      }
    });
    return (await this.list(caller.accountId, caller.plan)).find((view) => view.filter_id === id)!;
  }

  async list(accountId: string, plan: Plan): Promise<SavedFilterView[]> {
    const [rows, links] = await Promise.all([
      this.db
        .selectFrom('saved_filters')
        .select(['id', 'name', 'query', 'as_typed', 'brand', 'created_at'])
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute(),
      this.db
        .selectFrom('saved_filter_targets')
        .innerJoin('saved_filters', 'saved_filters.id', 'saved_filter_targets.filter_id')
        .select(['filter_id', 'target_id'])
        .where('saved_filters.account_id', '=', accountId)
        .execute(),
    ]);
    return rows.map((row, index) => ({
      filter_id: row.id,
      name: row.name,
      filter: row.query,
      as_typed: row.as_typed ?? row.query,
      brand: row.brand,
      target_ids: links.filter((link) => link.filter_id === row.id).map((link) => link.target_id),
      paused: index >= plan.maxSavedFilters,
      created_at: new Date(row.created_at).toISOString(),
    }));
  }

  async remove(accountId: string, filterId: string): Promise<void> {
    const result = await this.db
      .deleteFrom('saved_filters')
      .where('id', '=', filterId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) {
      throw appError('filter_not_found', `No saved filter ${filterId} on your account.`);
    }
  }

  /**
   * Every filter the matching round runs: per account the oldest ones up to its plan's limit
   * (`plans` gives each account's plan in force).
   */
  async active(plans: (accountIds: string[]) => Promise<Map<string, { plan: Plan }>>): Promise<ActiveFilter[]> {
    const rows = await this.db
      .selectFrom('saved_filters')
      .select(['id', 'account_id', 'name', 'query', 'brand', 'matched_through', 'next_sequence', 'created_at'])
      .orderBy('account_id')
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    const byAccount = await plans([...new Set(rows.map((row) => row.account_id))]);
    const seen = new Map<string, number>();
    const active: ActiveFilter[] = [];
    for (const row of rows) {
      const index = seen.get(row.account_id) ?? 0;
      seen.set(row.account_id, index + 1);
      const plan = byAccount.get(row.account_id)?.plan;
      if (!plan || index >= plan.maxSavedFilters) continue;
      active.push({
        id: row.id,
        accountId: row.account_id,
        name: row.name,
        filters: this.canonical(row.query).filters,
        brand: row.brand,
        matchedThrough: row.matched_through,
        nextSequence: row.next_sequence,
      });
    }
    return active;
  }

  /** Moves the watermark of filters that matched nothing new in a round. */
  async advance(filterIds: readonly string[], matchedThrough: number): Promise<void> {
    for (let i = 0; i < filterIds.length; i += 500) {
      await this.db
        .updateTable('saved_filters')
        .set({ matched_through: matchedThrough })
        .where('id', 'in', filterIds.slice(i, i + 500))
        .execute();
    }
  }

  /** The targets each filter delivers to. */
  async targetsOf(filterIds: readonly string[]): Promise<Map<string, string[]>> {
    if (filterIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('saved_filter_targets')
      .select(['filter_id', 'target_id'])
      .where('filter_id', 'in', filterIds)
      .execute();
    const map = new Map<string, string[]>();
    for (const row of rows) map.set(row.filter_id, [...(map.get(row.filter_id) ?? []), row.target_id]);
    return map;
  }

  async #countOwned(db: Kysely<DB>, accountId: string): Promise<number> {
    const row = await db
      .selectFrom('saved_filters')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/** 403 `plan_limit_reached`: the plan table's limit for `what`. */
export function limitReached(what: string, plan: Plan, limit: number): AppError {
  return appError(
    'plan_limit_reached',
    `The ${plan.name} plan allows ${limit.toLocaleString('en-US')} ${what}; remove one or upgrade.`,
    { details: { plan: plan.id, limit } },
  );
}
