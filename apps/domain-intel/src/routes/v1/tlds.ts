import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { Envelope, EnvelopeWithMeta, ListMeta, TldDataSources, TldDrops, TldInfo } from '@repo/contracts/domain-intel';
import { appError } from '../../error-catalogue.ts';
import { ok } from '../../http/envelope.ts';
import { errorResponses, keyedErrorResponses } from '../../http/schemas.ts';
import { type DropReport, formatTimeOfDay } from '../../lifecycle/index.ts';
import { describeTlds } from '../../registry/tld-directory.ts';

const tldsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const describe = () =>
    describeTlds({
      rdapServers: () => app.ctx.rdap.allServers(),
      whoisServers: app.ctx.rdap.whoisServers,
      trackedTlds: app.ctx.config.TRACKED_TLDS,
    });
  const listMeta = ListMeta({ total: Type.Integer(), ...TldDataSources.properties });

  app.get(
    '/tlds',
    {
      config: { quota: 'free' },
      schema: {
        summary: 'Every TLD of the root zone and how it is answered',
        description:
          "Every TLD of IANA's root zone (the built-in list; meta.root_zone names its version) with its RDAP " +
          'servers and where they come from, its port-43 WHOIS server, which protocol /v1/check and /v1/whois ' +
          'use, whether a free name can be confirmed (`availability`), and whether the drop feed tracks it. ' +
          'Does not count against the quota.',
        tags: ['availability'],
        response: { 200: EnvelopeWithMeta(Type.Array(TldInfo), listMeta), ...keyedErrorResponses },
      },
    },
    async (request) => {
      const { tlds, rootZoneVersion, rdapBootstrapLoaded } = await describe();
      return ok(request, tlds, {
        total: tlds.length,
        root_zone: rootZoneVersion,
        rdap_bootstrap_loaded: rdapBootstrapLoaded,
      });
    },
  );

  app.get(
    '/tlds/:tld',
    {
      config: { quota: 'free' },
      schema: {
        summary: 'How one TLD is answered',
        description: 'The /v1/tlds entry of one TLD (ASCII or Unicode, with or without the leading dot).',
        tags: ['availability'],
        params: Type.Object({ tld: Type.String({ maxLength: 64 }) }),
        response: { 200: Envelope(TldInfo), ...keyedErrorResponses, ...errorResponses(404) },
      },
    },
    async (request) => ok(request, await findTld(request.params.tld)),
  );

  app.get(
    '/tlds/:tld/drops',
    {
      config: { quota: 'free' },
      schema: {
        summary: "A tracked TLD's deletion batch and how far its drop forecasts were off",
        description:
          "The registry's daily deletion batch time the drop forecasts are planned from (configured or learned), " +
          'its batch calendar of the last 30 days, and the error of the forecasts of the drops verified in those ' +
          '30 days: error = verified drop − the expected_drop_at published before it (positive: late), as the ' +
          'median and 90th percentile of minutes early and of minutes late, and the share verified inside the ' +
          'published window (expected_drop_earliest … expected_drop_latest). A TLD the feed does not track ' +
          'answers drop_feed false, an empty calendar and no drops. Does not count against the quota.',
        tags: ['feed'],
        params: Type.Object({ tld: Type.String({ maxLength: 64 }) }),
        response: { 200: Envelope(TldDrops), ...keyedErrorResponses, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { tld, drop_feed } = await findTld(request.params.tld);
      return ok(request, tldDrops(tld, drop_feed, await app.ctx.lifecycle.dropReport(tld)));
    },
  );

  /** The /v1/tlds entry of `raw` (ASCII or Unicode, with or without the dot); tld_not_found outside the root zone. */
  async function findTld(raw: string) {
    const wanted = toAsciiTld(raw);
    const { tlds } = await describe();
    const found = tlds.find((entry) => entry.tld === wanted);
    if (!found) {
      throw appError('tld_not_found', `"${raw}" is not a TLD of the root zone.`, { details: { tld: raw } });
    }
    return found;
  }
};

const iso = (time: number) => new Date(time).toISOString();

/** The answer of /v1/tlds/{tld}/drops (a TLD the feed does not track has nothing learned and no drops). */
function tldDrops(tld: string, dropFeed: boolean, report: DropReport): TldDrops {
  const { error } = report;
  const side = (errorSide: typeof error.early) => ({
    count: errorSide.count,
    p50_minutes: errorSide.p50Minutes,
    p90_minutes: errorSide.p90Minutes,
  });
  return {
    tld,
    drop_feed: dropFeed,
    batch_time: report.batchTimeOfDay === null ? null : formatTimeOfDay(report.batchTimeOfDay),
    batch_time_source: report.batchTimeSource,
    calendar: report.calendar.map((day) => ({
      date: day.day,
      first: formatTimeOfDay(day.firstAt),
      last: formatTimeOfDay(day.lastAt),
    })),
    forecast_error: {
      from: iso(report.from),
      to: iso(report.to),
      drops: error.drops,
      early: side(error.early),
      late: side(error.late),
      inside_window_share: error.insideWindowShare,
    },
  };
}

/** `.Рф`, `рф` and `xn--p1ai` all name the same TLD; anything URL parsing refuses is kept as typed (and not found). */
function toAsciiTld(raw: string): string {
  const trimmed = raw.trim().replace(/^\./, '').toLowerCase();
  try {
    return new URL(`http://x.${trimmed}`).hostname.split('.').at(-1) ?? trimmed;
  } catch {
    return trimmed;
  }
}

export default tldsRoutes;
