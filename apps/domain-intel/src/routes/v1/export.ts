import { Readable } from 'node:stream';
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { FeedFilterQuery, type FeedRecord } from '@repo/contracts/domain-intel';
import { appError } from '../../error-catalogue.ts';
import { parseFeedFilters } from '../../feed/feed-params.ts';
import { CSV_HEADER, toCsvLine } from '../../feed/feed-row.ts';
import { requirePlanFeature } from '../../http/plan-gate.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

const FORMATS = ['ndjson', 'csv'] as const;
const PAGING_PARAMETERS = ['limit', 'offset', 'sort'];

async function* render(records: AsyncIterable<FeedRecord>, format: (typeof FORMATS)[number]): AsyncGenerator<string> {
  if (format === 'csv') yield `${CSV_HEADER.join(',')}\n`;
  for await (const record of records) {
    yield format === 'csv' ? `${toCsvLine(record)}\n` : `${JSON.stringify(record)}\n`;
  }
}

const exportRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/domains/export',
    {
      schema: {
        summary: 'Bulk export of the feed (Enterprise)',
        description:
          'Every record matching the same filters as /v1/domains, streamed in domain order, without a row cap, as ' +
          'NDJSON (default) or CSV. One call counts once against the quota.',
        tags: ['feed'],
        querystring: Type.Object({
          ...FeedFilterQuery,
          format: Type.Optional(Type.String({ description: 'ndjson (default) or csv' })),
        }),
        response: {
          200: Type.Unsafe<Readable>({
            description: 'NDJSON (application/x-ndjson) or CSV (text/csv)',
            type: 'string',
          }),
          ...keyedErrorResponses,
        },
      },
    },
    async (request, reply) => {
      requirePlanFeature(request, 'bulkExport', 'Bulk export');
      // The paging parameters are deliberately not in the schema: they are read only to be refused.
      const query: Record<string, string | undefined> = request.query;
      const paging = PAGING_PARAMETERS.filter((name) => query[name] !== undefined);
      if (paging.length > 0) {
        throw appError(
          'unsupported_parameter',
          `The export returns every match in domain order; drop ${paging.join(', ')}.`,
          {
            details: {
              parameters: paging,
            },
          },
        );
      }
      const format = query.format ?? 'ndjson';
      if (!(FORMATS as readonly string[]).includes(format)) {
        throw appError('invalid_format', `format must be ndjson or csv; got "${format}".`, {
          details: { parameter: 'format' },
        });
      }
      const filters = parseFeedFilters(query, app.ctx.config.TRACKED_TLDS);
      const typed = format as (typeof FORMATS)[number];
      const date = new Date(app.ctx.clock.now()).toISOString().slice(0, 10);
      reply
        .type(typed === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="dropped-domains-${date}.${typed}"`);
      return reply.send(Readable.from(render(app.ctx.feed.stream(filters), typed)));
    },
  );
};

export default exportRoute;
