import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { Envelope, EnvelopeWithMeta, ListMeta, TldDataSources, TldInfo } from '@repo/contracts/domain-intel';
import { appError } from '../../error-catalogue.ts';
import { ok } from '../../http/envelope.ts';
import { errorResponses, keyedErrorResponses } from '../../http/schemas.ts';
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
    async (request) => {
      const wanted = toAsciiTld(request.params.tld);
      const { tlds } = await describe();
      const found = tlds.find((entry) => entry.tld === wanted);
      if (!found) {
        throw appError('tld_not_found', `"${request.params.tld}" is not a TLD of the root zone.`, {
          details: { tld: request.params.tld },
        });
      }
      return ok(request, found);
    },
  );
};

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
