/**
 * The new-registrations page against the drop page: GET /v1/domains?status=new and the same call
 * with status=dropped, on one server over one feed table, at 10 M rows by default (target: the new
 * page costs at most 1.2× the drop page's server CPU per request). The table is the drop
 * benchmark's (domains-feed-rows.ts), with half of its rows turned into new registrations as the
 * zone diff writes them (status `new`, `zone_date` over the last 30 days, no drop, RDAP or
 * enrichment values), so both statuses have the same size and mix of labels and TLDs.
 * Each pair is compared with the drop page as the baseline, alternating rounds: the default page,
 * a filtered page (TLDs, length, no hyphens, a substring) and a page at offset 10,000.
 * FEED_BENCH_ROWS overrides the row count (1 M for a quick run), DATABASE_URL adds PostgreSQL.
 */
import { type Dialect, utcDate } from '@repo/server-kit';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { createContext } from 'domain-intel/src/context.ts';
import { type Kysely, sql } from 'kysely';
import { populateFeed } from './domains-feed-rows.ts';
import { benchDatabase } from './lib/bench-database.ts';
import { type DomainIntelInfo, startDomainIntel } from './lib/domain-intel.ts';
import { benchRounds, compareServers, report, type ServerProcess } from './lib/harness.ts';

const ROWS = Number(process.env.FEED_BENCH_ROWS ?? 10_000_000);
const NOW = Date.now();
const DAY = 86_400_000;

const pages: Array<{ name: string; query: string }> = [
  { name: 'default', query: '' },
  { name: 'filtered', query: '&tld=com,net&max_length=12&hyphens=false&contains=a&limit=100' },
  { name: 'offset-10000', query: '&limit=100&offset=10000' },
];

/**
 * Half the rows become new registrations: every row that is not a verified drop (a fifth) and
 * three eighths of the drops, chosen by the minute of their drop time (spread evenly by the
 * generator). Their first zone files spread over the retention's 30 days.
 */
async function makeHalfNew(db: Kysely<unknown>): Promise<void> {
  const firstSeen = (offset: number) => `'${utcDate(NOW - offset * DAY)}'`;
  const zoneDate = `case (length(domain) % 3) when 0 then ${firstSeen(0)} when 1 then ${firstSeen(12)} else ${firstSeen(29)} end`;
  await sql
    .raw(
      `update feed_domains set status = 'new', zone_date = ${zoneDate}, dropped_at = null, verified_at = null,
        expected_drop_at = null, first_archived_at = null, alt_tld_count = null, alt_tlds = null, da = null, tf = null
        where status <> 'dropped' or (dropped_at / 60000) % 8 < 3`,
    )
    .execute(db);
}

async function measure(dialect: Dialect): Promise<void> {
  const database = await benchDatabase(dialect);
  const env = { ...database.env, JOBS_SCHEDULER: 'off' };
  let server: ServerProcess<DomainIntelInfo> | undefined;
  try {
    const setup = await createContext(loadDomainIntelConfig({ ...env, LOG_LEVEL: 'silent' }));
    try {
      const started = performance.now();
      const db = setup.database.db as unknown as Kysely<unknown>;
      await populateFeed(db, dialect, ROWS, NOW);
      await makeHalfNew(db);
      await sql.raw(dialect === 'postgres' ? 'vacuum analyze feed_domains' : 'analyze').execute(db);
      console.log(`${dialect}: ${ROWS} feed rows written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      await setup.close();
    }
    server = await startDomainIntel({ env, feedIndexReady: true });
    const { headers } = server.info;
    for (const page of pages) {
      const path = (status: string) => `/v1/domains?status=${status}${page.query}`;
      const totals: Record<string, number> = {};
      for (const status of ['dropped', 'new']) {
        const answer = await fetch(server.url + path(status), { headers });
        const body = (await answer.json()) as { data: unknown[]; meta: { total: number } };
        if (answer.status !== 200 || body.data.length === 0) {
          throw new Error(`${page.name} ${status}: ${answer.status} ${JSON.stringify(body).slice(0, 300)}`);
        }
        totals[status] = body.meta.total;
      }
      const comparison = await compareServers(
        { server, path: path('dropped'), headers },
        { server, path: path('new'), headers },
        {
          rounds: benchRounds(3),
          connections: 10,
          postgres: dialect === 'postgres',
        },
      );
      report({
        name: `domains-feed-new-${dialect}-${page.name}-cpu`,
        ratio: comparison.candidate.cpuUsPerRequest / comparison.baseline.cpuUsPerRequest,
        target: '<= 1.2',
        details: {
          rows: ROWS,
          new_matches: totals.new!,
          drop_matches: totals.dropped!,
          new_cpu_us_per_req: comparison.candidate.cpuUsPerRequest,
          drop_cpu_us_per_req: comparison.baseline.cpuUsPerRequest,
          new_rps: comparison.candidate.requestsPerSecond,
          drop_rps: comparison.baseline.requestsPerSecond,
          new_p95_ms: comparison.candidate.p95Ms,
          drop_p95_ms: comparison.baseline.p95Ms,
          rounds: comparison.rounds,
        },
      });
    }
  } finally {
    await server?.close();
    await database.cleanup();
  }
}

await measure('sqlite');
if (process.env.DATABASE_URL) await measure('postgres');
else console.log('DATABASE_URL is not set: the Postgres variant is skipped.');
