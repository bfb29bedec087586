import rateLimit from '@fastify/rate-limit';
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { EnvelopeWithMeta, FeedListMeta, FeedRecord } from '@repo/contracts/domain-intel';
import { rateLimitResetAsUnixTime } from '@repo/server-kit';
import { parseDomain } from '../../domain/normalize.ts';
import { appError } from '../../error-catalogue.ts';
import { ok } from '../../http/envelope.ts';
import { errorResponses } from '../../http/schemas.ts';

const DAY_MS = 86_400_000;

/**
 * The key-less preview: one domain's feed record (or none). It counts against no key; each
 * client IP gets SAMPLE_RATE_PER_DAY calls per day (shared across instances through Redis
 * when REDIS_URL is set).
 */
const sampleRoute: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(rateLimit, {
    global: false,
    ...(app.ctx.redis ? { redis: app.ctx.redis, nameSpace: 'sample-rate:' } : {}),
    errorResponseBuilder: (_request, context) =>
      appError(
        'rate_limited',
        `The preview allows ${context.max} calls per day from one address; try again in ${context.after}, or use an API key.`,
      ),
  });
  rateLimitResetAsUnixTime(app);

  app.get(
    '/sample',
    {
      config: {
        auth: 'none',
        rateLimit: {
          max: app.ctx.config.SAMPLE_RATE_PER_DAY,
          timeWindow: DAY_MS,
          keyGenerator: (request) => request.ip,
        },
      },
      schema: {
        summary: 'Preview one domain (no key)',
        description:
          "The domain's dropped-feed record in the same shape as /v1/domains, at most one row. No key needed; " +
          'limited per client address (429 with Retry-After).',
        tags: ['feed'],
        security: [],
        querystring: Type.Object({ domain: Type.Optional(Type.String({ description: 'e.g. oldbrand.com' })) }),
        response: {
          200: EnvelopeWithMeta(Type.Array(FeedRecord, { maxItems: 1 }), FeedListMeta),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request) => {
      const { domain } = request.query;
      if (domain === undefined || domain.trim() === '') {
        throw appError('missing_domain', 'Pass the domain to preview, e.g. /v1/sample?domain=example.com.');
      }
      const parsed = parseDomain(domain);
      if (!parsed.ok) throw appError(parsed.error.code, parsed.error.message, { details: { parameter: 'domain' } });
      const tracked = app.ctx.config.TRACKED_TLDS;
      if (!tracked.includes(parsed.domain.tld)) {
        throw appError(
          'unknown_tld',
          `The feed does not track .${parsed.domain.tld}; tracked: ${tracked.join(', ')}.`,
          {
            details: {
              parameter: 'domain',
            },
          },
        );
      }
      const record = await app.ctx.feed.byDomain(parsed.domain.name);
      const rows = record ? [record] : [];
      return ok(request, rows, { total: rows.length, limit: 1, offset: 0 });
    },
  );
};

export default sampleRoute;
