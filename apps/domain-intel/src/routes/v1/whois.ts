import { Type } from '@fastify/type-provider-typebox';
import { AppError } from '@repo/server-kit';
import type { FastifyInstance } from 'fastify';
import { Counter } from 'prom-client';
import { normalizeDomain } from '../../domain/normalize.ts';
import { ok } from '../../http/envelope.ts';
import { Envelope, keyedErrorResponses } from '../../http/schemas.ts';
import type { RdapLookup } from '../../rdap/types.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const WhoisRecordSchema = Type.Object({
  domain: Type.String({ description: 'ASCII (punycode) name' }),
  unicode_name: Nullable(Type.String()),
  registered: Type.Boolean(),
  registrar: Nullable(
    Type.Object({
      name: Nullable(Type.String()),
      iana_id: Nullable(Type.String()),
      url: Nullable(Type.String()),
      abuse_email: Nullable(Type.String()),
      abuse_phone: Nullable(Type.String()),
    }),
  ),
  created_at: Nullable(Type.String({ format: 'date-time' })),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
  expires_at: Nullable(Type.String({ format: 'date-time' })),
  nameservers: Type.Array(Type.String()),
  status: Type.Array(Type.String(), {
    description: 'RDAP status values (RFC 8056), e.g. "client transfer prohibited"',
  }),
  dnssec: Nullable(Type.Boolean()),
  registrant: Nullable(
    Type.Object(
      {
        name: Nullable(Type.String()),
        organization: Nullable(Type.String()),
        email: Nullable(Type.String()),
        country: Nullable(Type.String()),
        redacted: Type.Boolean({ description: 'Some registrant data is withheld by the registry or registrar' }),
      },
      { description: 'null when neither registry nor registrar publishes a registrant' },
    ),
  ),
  rdap_sources: Type.Array(Type.String(), { description: 'RDAP URLs asked, registry first' }),
  missing: Type.Array(Type.String(), {
    description: 'Parts that could not be fetched, e.g. registrar_record when the registrar server failed',
  }),
  fetched_at: Type.String({ format: 'date-time' }),
});

/** How a lookup without a record is told to the caller. */
function lookupError(name: string, lookup: Exclude<RdapLookup, { kind: 'found' }>): AppError {
  if (lookup.kind === 'not_found') {
    return new AppError(404, 'domain_not_registered', `${name} is not registered: the registry has no record of it.`, {
      details: { domain: name, source: lookup.source },
    });
  }
  if (lookup.reason === 'no_rdap_server') {
    return new AppError(422, 'no_rdap_service', `The registry of ${name} offers no RDAP service we can query.`, {
      details: { domain: name },
    });
  }
  return new AppError(
    503,
    'upstream_unavailable',
    `The registry's RDAP server gave no usable answer: ${lookup.message}`,
    {
      details: { domain: name, reason: lookup.reason },
    },
  );
}

export default async function whoisRoute(app: FastifyInstance): Promise<void> {
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
          "The registry's RDAP record, completed by the registrar's record (one `related` hop). " +
          '404 `domain_not_registered` when the registry has no record; 422 `no_rdap_service` when the TLD has ' +
          'no RDAP server; 503 `upstream_unavailable` when the registry times out, throttles or fails ' +
          '(not counted against the quota).',
        tags: ['whois'],
        params: Type.Object({ name: Type.String({ maxLength: 512, description: 'Domain name (IDN allowed)' }) }),
        response: {
          200: Envelope(WhoisRecordSchema),
          ...keyedErrorResponses,
          404: Type.Ref('ErrorEnvelope'),
          422: Type.Ref('ErrorEnvelope'),
        },
      },
    },
    async (request) => {
      const { name } = normalizeDomain((request.params as { name: string }).name);
      const lookup = await app.ctx.rdap.lookupDomain(name);
      lookups.inc({ outcome: lookup.kind === 'unknown' ? lookup.reason : lookup.kind });
      if (lookup.kind !== 'found') throw lookupError(name, lookup);
      return ok(request, lookup.record);
    },
  );
}
