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
  switch (lookup.kind) {
    case 'not_found':
      return appError('domain_not_registered', `${name} is not registered: the registry has no record of it.`, {
        details: { domain: name, source: lookup.via, server: lookup.server },
      });
    case 'reserved':
      return appError('domain_reserved', `${name} is reserved: ${lookup.message}`, {
        details: { domain: name, source: lookup.via, server: lookup.server },
      });
    case 'unknown':
      if (lookup.reason === 'no_source') {
        return appError('no_registry_service', `Neither an RDAP nor a WHOIS server is known for the TLD of ${name}.`, {
          details: { domain: name },
        });
      }
      return appError('upstream_unavailable', `The registry gave no usable answer: ${lookup.message}`, {
        details: { domain: name, reason: lookup.reason, ...(lookup.server ? { server: lookup.server } : {}) },
      });
  }
}

const whoisRoute: FastifyPluginAsyncTypebox = async (app) => {
  const lookups = new Counter({
    name: `${app.metrics.prefix}whois_lookups_total`,
    help: '/v1/whois registry lookups by outcome (found, not_found, reserved, or the unknown reason)',
    labelNames: ['outcome'],
    registers: [app.metrics.registry],
  });
  app.get(
    '/whois/:name',
    {
      schema: {
        summary: 'Structured WHOIS record of a domain, through RDAP or port-43 WHOIS',
        description:
          "The registry's record: through RDAP where the TLD has an RDAP server (completed by the registrar's " +
          "record, one `related` hop), else through the TLD's port-43 WHOIS server, read into the same shape " +
          '(`source` and `server` say which; what a WHOIS answer lacks is null). Both records are also kept ' +
          'apart under `records`; `?raw=1` adds the documents (or the WHOIS text) as sent. Answers are cached ' +
          'per outcome (WHOIS_CACHE_TTL_*_S; `cached` and `fetched_at` say when the registry was asked). ' +
          '404 `domain_not_registered` when the registry has no record, `domain_reserved` when it says the ' +
          'name is reserved; 422 `no_registry_service` when the TLD has neither an RDAP nor a WHOIS server; ' +
          '503 `upstream_unavailable` when the registry times out, throttles or gives an answer we cannot ' +
          'read (not counted against the quota).',
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
