import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { Envelope, WhoisRecord } from '@repo/contracts/domain-intel';
import type { AppError } from '@repo/server-kit';
import { Counter } from 'prom-client';
import { normalizeDomain } from '../../domain/normalize.ts';
import { appError } from '../../error-catalogue.ts';
import { ok } from '../../http/envelope.ts';
import { errorResponses, keyedErrorResponses } from '../../http/schemas.ts';
import type { RdapLookup } from '../../rdap/types.ts';

/** How a lookup without a record is told to the caller. */
function lookupError(name: string, lookup: Exclude<RdapLookup, { kind: 'found' }>): AppError {
  if (lookup.kind === 'not_found') {
    return appError('domain_not_registered', `${name} is not registered: the registry has no record of it.`, {
      details: { domain: name, source: lookup.source },
    });
  }
  if (lookup.reason === 'no_rdap_server') {
    return appError('no_rdap_service', `The registry of ${name} offers no RDAP service we can query.`, {
      details: { domain: name },
    });
  }
  return appError('upstream_unavailable', `The registry's RDAP server gave no usable answer: ${lookup.message}`, {
    details: { domain: name, reason: lookup.reason },
  });
}

const whoisRoute: FastifyPluginAsyncTypebox = async (app) => {
  const lookups = new Counter({
    name: `${app.metrics.prefix}whois_lookups_total`,
    help: '/v1/whois RDAP lookups by outcome (found, not_found, or the unknown reason)',
    labelNames: ['outcome'],
    registers: [app.metrics.registry],
  });
  app.get(
    '/whois/:name',
    {
      schema: {
        summary: 'Structured WHOIS record of a domain, through RDAP',
        description:
          "The registry's RDAP record, completed by the registrar's record (one `related` hop), both also " +
          'kept apart under `records`; `?raw=1` adds the documents as sent. Answers are cached per outcome ' +
          '(WHOIS_CACHE_TTL_*_S; `cached` and `fetched_at` say when the registry was asked). ' +
          '404 `domain_not_registered` when the registry has no record; 422 `no_rdap_service` when the TLD has ' +
          'no RDAP server; 503 `upstream_unavailable` when the registry times out, throttles or fails ' +
          '(not counted against the quota).',
        tags: ['whois'],
        params: Type.Object({ name: Type.String({ maxLength: 512, description: 'Domain name (IDN allowed)' }) }),
        querystring: Type.Object({
          raw: Type.Optional(
            Type.Union([Type.Literal('1'), Type.Literal('0'), Type.Literal('true'), Type.Literal('false')], {
              description: 'raw=1 adds the RDAP documents of the registry and the registrar as sent',
            }),
          ),
        }),
        response: {
          200: Envelope(WhoisRecord),
          ...keyedErrorResponses,
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => {
      const { name } = normalizeDomain(request.params.name);
      const { raw } = request.query;
      const answer = await app.ctx.whois.lookup(name);
      lookups.inc({ outcome: answer.kind === 'unknown' ? answer.reason : answer.kind });
      if (answer.kind !== 'found') throw lookupError(name, answer);
      const withRaw = raw === '1' || raw === 'true';
      return ok(request, { ...answer.record, cached: answer.cached, ...(withRaw ? { raw: answer.raw } : {}) });
    },
  );
};

export default whoisRoute;
