import { Readable } from 'node:stream';
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { BULK_CHECK_MAX_DOMAINS, BulkCheck, Envelope, EnvelopeWithMeta, ListMeta } from '@repo/contracts/domain-intel';
import { namesOfText } from '../../bulk/bulk-input.ts';
import type { ResultsFormat } from '../../bulk/index.ts';
import { appError } from '../../error-catalogue.ts';
import { callerOf } from '../../http/caller-of.ts';
import { ok } from '../../http/envelope.ts';
import { PagingQuery, parsePaging } from '../../http/paging.ts';
import { requirePlanFeature } from '../../http/plan-gate.ts';
import { IdParams, managementErrors, notCounted } from './shared.ts';

const PAGING = { maxLimit: 100, maxOffset: 10_000, defaultLimit: 20 };
/** 10,000 names of up to 253 characters, quoted and separated, with room to spare. */
const BODY_LIMIT = 4 * 1_048_576;

/**
 * The list as JSON. A text upload is turned into the same object by this scope's parsers (one
 * name per line, or a CSV's first column), so one schema validates both and the handler sees one shape.
 */
const BulkCheckBody = Type.Object({
  domains: Type.Array(Type.String(), {
    description: `Up to ${BULK_CHECK_MAX_DOMAINS.toLocaleString('en')} names, as /v1/check takes them`,
  }),
});

const BulkCheckPage = EnvelopeWithMeta(
  Type.Array(BulkCheck),
  ListMeta({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
);

/** ?format= wins; else Accept: text/csv asks for CSV; NDJSON otherwise. */
function resultsFormat(format: string | undefined, accept: string | undefined): ResultsFormat {
  if (format === undefined) return /\btext\/csv\b/i.test(accept ?? '') ? 'csv' : 'ndjson';
  if (format === 'ndjson' || format === 'csv') return format;
  throw appError('invalid_format', `format must be ndjson or csv; got "${format}".`, {
    details: { parameter: 'format' },
  });
}

/** /account/bulk-checks: availability of up to 10,000 names as a job, results downloaded when decided. */
const bulkCheckRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { bulkChecks } = app.ctx;
  // Text uploads become the JSON body's shape before validation (this scope only).
  app.removeContentTypeParser('text/plain');
  for (const type of ['text/plain', 'text/csv']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, { domains: namesOfText(String(body), type === 'text/csv') }),
    );
  }

  app.post(
    '/bulk-checks',
    {
      config: notCounted,
      bodyLimit: BODY_LIMIT,
      schema: {
        summary: 'Start a bulk availability check (Starter, Enterprise)',
        description:
          `Up to ${BULK_CHECK_MAX_DOMAINS.toLocaleString('en')} names as JSON {"domains": [...]}, or uploaded as ` +
          'text/plain (one per line) or text/csv (the first column; a header row named domain is skipped). Duplicates are merged after normalisation; a ' +
          'malformed name becomes an item of its own (status invalid, its error code as reason) and the job runs on. ' +
          'Each distinct valid name counts one call of the daily quota, all taken now: a job bigger than what is ' +
          'left is refused whole (429 quota_exceeded, nothing counted). The job runs in the background within ' +
          "each registry's rate limits, behind interactive calls; poll GET /account/bulk-checks/{id} or take the " +
          '`bulk_check.completed` webhook.',
        tags: ['management'],
        body: BulkCheckBody,
        response: { 202: Envelope(BulkCheck), ...managementErrors },
      },
    },
    async (request, reply) => {
      requirePlanFeature(request, 'bulkCheck', 'Bulk checks');
      const job = await bulkChecks.submit(callerOf(request), request.body.domains);
      return reply.status(202).header('location', `/account/bulk-checks/${job.id}`).send(ok(request, job));
    },
  );

  app.get(
    '/bulk-checks',
    {
      config: notCounted,
      schema: {
        summary: 'Your bulk checks, newest first',
        tags: ['management'],
        querystring: Type.Object(PagingQuery(PAGING.maxLimit, PAGING.maxOffset, PAGING.defaultLimit)),
        response: { 200: BulkCheckPage, ...managementErrors },
      },
    },
    async (request) => {
      const { limit, offset } = parsePaging(request.query, PAGING);
      const { jobs, total } = await bulkChecks.list(callerOf(request).accountId, limit, offset);
      return ok(request, jobs, { total, limit, offset });
    },
  );

  app.get(
    '/bulk-checks/:id',
    {
      config: notCounted,
      schema: {
        summary: 'A bulk check: its status and progress',
        tags: ['management'],
        params: IdParams,
        response: { 200: Envelope(BulkCheck), ...managementErrors },
      },
    },
    async (request) => ok(request, await bulkChecks.get(callerOf(request).accountId, request.params.id)),
  );

  app.get(
    '/bulk-checks/:id/results',
    {
      config: notCounted,
      schema: {
        summary: "A bulk check's results (NDJSON or CSV)",
        description:
          'One /v1/check record per distinct name, in the order first given, for every item decided so far (all ' +
          'of them once the job is done; a cancelled job keeps those decided before the cancel). NDJSON by ' +
          'default; CSV with ?format=csv or Accept: text/csv.',
        tags: ['management'],
        params: IdParams,
        querystring: Type.Object({ format: Type.Optional(Type.String({ description: 'ndjson (default) or csv' })) }),
        response: {
          200: Type.Unsafe<Readable>({
            description: 'NDJSON (application/x-ndjson) or CSV (text/csv)',
            type: 'string',
          }),
          ...managementErrors,
        },
      },
    },
    async (request, reply) => {
      const format = resultsFormat(request.query.format, request.headers.accept);
      const { id } = request.params;
      const lines = await bulkChecks.results(callerOf(request).accountId, id, format);
      reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${id}.${format}"`);
      return reply.send(Readable.from(lines));
    },
  );

  app.post(
    '/bulk-checks/:id/cancel',
    {
      config: notCounted,
      schema: {
        summary: 'Cancel a bulk check',
        description:
          'A queued or running job stops before its next round of names; the items decided so far stay ' +
          'downloadable. The calls the job took are not given back.',
        tags: ['management'],
        params: IdParams,
        response: { 200: Envelope(BulkCheck), ...managementErrors },
      },
    },
    async (request) => ok(request, await bulkChecks.cancel(callerOf(request).accountId, request.params.id)),
  );
};

export default bulkCheckRoutes;
