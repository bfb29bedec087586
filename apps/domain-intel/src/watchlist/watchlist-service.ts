import type { WatchEvidence, WatchedDomain, WatchStatus, WatchTransitionData } from '@repo/contracts/domain-intel';
import type { Clock } from '@repo/server-kit';
import PQueue from 'p-queue';
import type { Caller } from '../accounts/caller.ts';
import type { Plan } from '../accounts/plans.ts';
import type { ZonePresence } from '../availability/zone-presence.ts';
import { normalizeDomain } from '../domain/normalize.ts';
import { appError } from '../error-catalogue.ts';
import { isPipelineStatus, rdapStanding } from '../lifecycle/index.ts';
import type { RdapLookup, RdapLookupOptions } from '../rdap/types.ts';
import {
  nextWatchCheck,
  type Observation,
  observe,
  type WatchState,
  watchStatusOfFeed,
  watchStatusOfRdap,
} from './watch-states.ts';
import {
  type FeedEvidenceRow,
  type FollowCutoff,
  isPaused,
  type WatchlistStore,
  type WatchRow,
} from './watchlist-store.ts';

const HOUR = 3_600_000;
/** Lifecycle evidence taken per page of a round. */
const FEED_PAGE = 1_000;

export interface WatchlistDeps {
  store: WatchlistStore;
  clock: Clock;
  rdap: {
    lookupDomain(name: string, options: RdapLookupOptions): Promise<RdapLookup>;
    hasServerFor(suffix: string): Promise<boolean | null>;
  };
  /** The zone index: a name of a tracked TLD in our latest snapshot is registered. */
  zonePresence: ZonePresence;
  /** The lifecycle's current status of names it follows (feed rows of tracked TLDs). */
  lifecycleStatuses(domains: readonly string[]): Promise<Map<string, string>>;
  plansOf(accountIds: readonly string[]): Promise<Map<string, { plan: Plan }>>;
  /** Records a `watch.transition` for the account's webhooks (awaited: it must be stored before the row moves). */
  recordTransition(accountId: string, data: WatchTransitionData, dedupeKey: string): Promise<void>;
  trackedTlds: readonly string[];
}

export interface WatchlistOptions {
  /** Most names RDAP re-checks in one round. */
  budget: number;
  /** RDAP lookups in flight in a round (the RDAP client also limits each registry). */
  concurrency: number;
  /** How long the first look at a newly added name may take, ms (the add answers with what it found). */
  firstLookMs: number;
}

export interface FollowReport {
  /** Rows that took lifecycle (zone diff / lifecycle RDAP) evidence. */
  lifecycle: number;
  /** Names looked up in RDAP. */
  checked: number;
  /** Names found in the zone index instead. */
  zone: number;
  transitions: number;
  unknown: number;
  /** Due names left for the next round (deadline). */
  skipped: number;
}

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/**
 * Watchlists: accounts watch names, registered or not, under any TLD with RDAP, and hear of
 * every move through the lifecycle. Names of tracked TLDs take the lifecycle's own evidence
 * (the zone diff and its RDAP re-checks, from feed_domains) and the zone index; every name is
 * re-checked in RDAP on a schedule planned from its expected drop (watch-states.ts). Each move
 * is recorded as a `watch.transition` event before the row changes, under a key made of the
 * state it leaves, so a crash between the two never loses or doubles an event.
 */
export class WatchlistService {
  constructor(
    private readonly deps: WatchlistDeps,
    private readonly options: WatchlistOptions,
  ) {}

  /** Starts watching a name (a name already watched is left as it is), then takes a first look at it. */
  async add(
    caller: Pick<Caller, 'accountId' | 'plan'>,
    rawDomain: unknown,
  ): Promise<{ watch: WatchedDomain; added: boolean }> {
    const domain = normalizeDomain(rawDomain);
    if ((await this.deps.rdap.hasServerFor(domain.tld)) === false) {
      throw appError(
        'tld_without_registry_service',
        `.${domain.tld} has no RDAP or WHOIS server we can ask, so ${domain.name} cannot be followed.`,
        {
          details: { domain: domain.name },
        },
      );
    }
    const { added } = await this.deps.store.add(caller, {
      domain: domain.name,
      tld: domain.tld,
      now: this.deps.clock.now(),
    });
    if (added) await this.followNames([domain.name], Date.now() + this.options.firstLookMs);
    return { watch: await this.get(caller, domain.name), added };
  }

  async remove(accountId: string, rawDomain: unknown): Promise<void> {
    const { name } = normalizeDomain(rawDomain);
    if (!(await this.deps.store.remove(accountId, name))) {
      throw appError('watch_not_found', `You are not watching ${name}.`, { details: { domain: name } });
    }
  }

  /** One page of the account's watchlist, oldest first. */
  async list(
    caller: Pick<Caller, 'accountId' | 'plan'>,
    page: { limit: number; offset: number },
  ): Promise<{ watches: WatchedDomain[]; total: number }> {
    const { rows, total } = await this.deps.store.page(caller.accountId, page);
    const cutoff = (await this.deps.store.cutoffs([caller.accountId], () => caller.plan.maxWatchedDomains)).get(
      caller.accountId,
    );
    return { watches: rows.map((row) => toRecord(row, cutoff)), total };
  }

  async get(caller: Pick<Caller, 'accountId' | 'plan'>, domain: string): Promise<WatchedDomain> {
    const row = (await this.deps.store.rowsOf([domain])).find((candidate) => candidate.account_id === caller.accountId);
    if (!row) throw appError('watch_not_found', `You are not watching ${domain}.`, { details: { domain } });
    const cutoff = (await this.deps.store.cutoffs([caller.accountId], () => caller.plan.maxWatchedDomains)).get(
      caller.accountId,
    );
    return toRecord(row, cutoff);
  }

  /**
   * One round: every row takes the lifecycle evidence it has not taken yet, then the names whose
   * re-check is due (at most `budget`, soonest first) are looked at, until `deadline` (wall clock).
   */
  async follow(options: { deadline: number }): Promise<FollowReport> {
    const report: FollowReport = { lifecycle: 0, checked: 0, zone: 0, transitions: 0, unknown: 0, skipped: 0 };
    for (;;) {
      const rows = await this.deps.store.feedEvidence(FEED_PAGE);
      if (rows.length === 0) break;
      const cutoffs = await this.#cutoffs(rows);
      for (const row of rows) await this.#takeLifecycleEvidence(row, cutoffs.get(row.account_id), report);
      if (rows.length < FEED_PAGE || Date.now() >= options.deadline) break;
    }
    const due = await this.deps.store.due(this.deps.clock.now(), this.options.budget);
    await this.#lookAt(due, options.deadline, report);
    return report;
  }

  /** Looks at these names now (all their watchers): lifecycle evidence first, then the zone or RDAP. */
  async followNames(domains: readonly string[], deadline: number): Promise<FollowReport> {
    const report: FollowReport = { lifecycle: 0, checked: 0, zone: 0, transitions: 0, unknown: 0, skipped: 0 };
    const rows = await this.deps.store.feedEvidence(FEED_PAGE, domains);
    const cutoffs = await this.#cutoffs(rows);
    for (const row of rows) await this.#takeLifecycleEvidence(row, cutoffs.get(row.account_id), report);
    await this.#lookAt(await this.deps.store.rowsOf(domains), deadline, report);
    return report;
  }

  async #cutoffs(rows: readonly Pick<WatchRow, 'account_id'>[]): Promise<Map<string, FollowCutoff>> {
    const accountIds = rows.map((row) => row.account_id);
    const plans = await this.deps.plansOf(accountIds);
    return this.deps.store.cutoffs(accountIds, (accountId) => plans.get(accountId)?.plan.maxWatchedDomains ?? 0);
  }

  async #takeLifecycleEvidence(row: FeedEvidenceRow, cutoff: FollowCutoff | undefined, report: FollowReport) {
    if (isPaused(row, cutoff)) return;
    const status = watchStatusOfFeed(row.feed_status);
    const now = this.deps.clock.now();
    // A name seen for the first time takes the lifecycle's word only while it is on its way out:
    // an old `dropped` or `returned` row may be stale, and the zone or RDAP tells the present.
    if (!status || (row.status === 'unknown' && !isPipelineStatus(row.feed_status))) {
      await this.deps.store.update(row, { ...this.#unchanged(row, now), feedSeen: feedSeenOf(row) });
      return;
    }
    const observation: Observation = {
      status,
      at: row.feed_status_since,
      expectedDropAt: row.feed_expected_drop_at,
      expiresAt: null,
      evidence: {
        source: 'lifecycle',
        at: new Date(row.feed_status_since).toISOString(),
        detail: {
          lifecycle_status: row.feed_status,
          zone_date: row.feed_zone_date,
          verified_at: iso(row.feed_verified_at),
        },
      },
    };
    report.lifecycle += 1;
    await this.#apply(row, observation, { tracked: true, feedSeen: feedSeenOf(row) }, report);
  }

  /** The zone index or RDAP for each due name, once per name whoever watches it. */
  async #lookAt(rows: readonly WatchRow[], deadline: number, report: FollowReport): Promise<void> {
    if (rows.length === 0) return;
    const byDomain = new Map<string, WatchRow[]>();
    for (const row of rows) byDomain.set(row.domain, [...(byDomain.get(row.domain) ?? []), row]);
    const cutoffs = await this.#cutoffs(rows);
    const tracked = new Set(this.deps.trackedTlds);
    const lifecycle = await this.deps.lifecycleStatuses(
      [...byDomain.keys()].filter((domain) => tracked.has(byDomain.get(domain)![0]!.tld)),
    );
    const queue = new PQueue({ concurrency: this.options.concurrency });
    await queue.addAll(
      [...byDomain].map(([domain, watchers]) => async () => {
        const now = this.deps.clock.now();
        const followed = watchers.filter((row) => !isPaused(row, cutoffs.get(row.account_id)));
        const paused = watchers.filter((row) => isPaused(row, cutoffs.get(row.account_id)));
        // Paused rows wait a day; they are looked at again once the plan allows them.
        if (paused.length > 0) await this.deps.store.postpone(paused, now + 24 * HOUR);
        if (followed.length === 0) return;
        const isTracked = tracked.has(followed[0]!.tld);
        // The lifecycle re-checks names on their way out itself, planned by their expected drop.
        const lifecycleStatus = lifecycle.get(domain);
        if (isTracked && lifecycleStatus !== undefined && isPipelineStatus(lifecycleStatus)) {
          await this.deps.store.postpone(followed, now + HOUR);
          return;
        }
        if (Date.now() >= deadline) {
          report.skipped += 1;
          return;
        }
        const observation = await this.#observe(domain, isTracked, followed, deadline, report);
        for (const row of followed) {
          if (observation) await this.#apply(row, observation, { tracked: isTracked }, report);
          else await this.#failed(row, isTracked);
        }
      }),
    );
  }

  /** What the zone index (tracked TLDs, names not known registered) or else RDAP says now. */
  async #observe(
    domain: string,
    tracked: boolean,
    watchers: readonly WatchRow[],
    deadline: number,
    report: FollowReport,
  ): Promise<Observation | null> {
    const now = this.deps.clock.now();
    const mayBeNew = watchers.some((row) => row.status === 'unknown' || row.status === 'available');
    if (tracked && mayBeNew && (await this.deps.zonePresence.isInZone(domain)) === true) {
      report.zone += 1;
      return {
        status: 'registered',
        at: now,
        expectedDropAt: null,
        expiresAt: null,
        evidence: { source: 'zone', at: new Date(now).toISOString(), detail: { tld: watchers[0]!.tld, in_zone: true } },
      };
    }
    report.checked += 1;
    // Through RDAP, or port-43 WHOIS for a TLD without RDAP, at the background share of that server's rate.
    const lookup = await this.deps.rdap.lookupDomain(domain, { traffic: 'background', registryOnly: true, deadline });
    const standing = rdapStanding(lookup);
    const status = watchStatusOfRdap(standing);
    if (standing.kind === 'unknown' || status === null) {
      report.unknown += 1;
      return null;
    }
    const checkedAt = this.deps.clock.now();
    return {
      status,
      at: checkedAt,
      expectedDropAt: null,
      expiresAt: standing.kind === 'available' ? null : standing.expiresAt,
      evidence: {
        source: lookup.kind === 'found' ? lookup.record.source : lookup.kind === 'unknown' ? 'rdap' : lookup.via,
        at: new Date(checkedAt).toISOString(),
        detail: standing.detail,
      },
    };
  }

  /**
   * Applies an observation to one row: the event first (keyed by the state the row leaves, so a
   * re-run after a crash records it once), then the row, only if it is still in that state.
   */
  async #apply(
    row: WatchRow,
    observation: Observation,
    context: { tracked: boolean; feedSeen?: { at: number; status: string } },
    report: FollowReport,
  ): Promise<void> {
    const now = this.deps.clock.now();
    const current: WatchState = {
      status: row.status as WatchStatus,
      statusSince: row.status_since,
      expectedDropAt: row.expected_drop_at,
    };
    const { state, transition } = observe(current, observation);
    if (transition) {
      await this.deps.recordTransition(
        row.account_id,
        {
          domain: row.domain,
          transition,
          from: current.status,
          to: state.status,
          expected_drop_at: iso(state.expectedDropAt),
          evidence: observation.evidence,
          at: observation.evidence.at,
        },
        `watch.transition:${row.account_id}:${row.domain}:${current.status}:${current.statusSince ?? 0}`,
      );
      report.transitions += 1;
    }
    // Evidence that moved nothing keeps the evidence that set the status, unless it is newer RDAP.
    const keepEvidence = !transition && state.status === current.status && observation.evidence.source === 'lifecycle';
    await this.deps.store.update(row, {
      state,
      evidence: keepEvidence && row.evidence ? row.evidence : JSON.stringify(observation.evidence),
      checkedAt: now,
      nextCheckAt: nextWatchCheck(now, state, {
        tracked: context.tracked,
        failures: 0,
        expiresAt: observation.expiresAt,
      }),
      failures: 0,
      ...(context.feedSeen ? { feedSeen: context.feedSeen } : {}),
    });
  }

  /** No answer: the status stays, the next look backs off. */
  async #failed(row: WatchRow, tracked: boolean): Promise<void> {
    const now = this.deps.clock.now();
    const failures = row.check_failures + 1;
    await this.deps.store.update(row, {
      ...this.#unchanged(row, now),
      nextCheckAt: nextWatchCheck(now, stateOf(row), { tracked, failures, expiresAt: null }),
      failures,
    });
  }

  #unchanged(row: WatchRow, now: number) {
    return {
      state: stateOf(row),
      evidence: row.evidence,
      checkedAt: row.checked_at ?? now,
      nextCheckAt: row.next_check_at,
      failures: row.check_failures,
    };
  }
}

const feedSeenOf = (row: FeedEvidenceRow) => ({ at: row.feed_status_since, status: row.feed_status });

const stateOf = (row: WatchRow): WatchState => ({
  status: row.status as WatchStatus,
  statusSince: row.status_since,
  expectedDropAt: row.expected_drop_at,
});

function toRecord(row: WatchRow, cutoff: FollowCutoff | undefined): WatchedDomain {
  return {
    domain: row.domain,
    status: row.status as WatchStatus,
    status_since: iso(row.status_since),
    expected_drop_at: iso(row.expected_drop_at),
    evidence: row.evidence ? (JSON.parse(row.evidence) as WatchEvidence) : null,
    checked_at: iso(row.checked_at),
    next_check_at: new Date(row.next_check_at).toISOString(),
    paused: isPaused(row, cutoff),
    added_at: new Date(row.created_at).toISOString(),
  };
}
