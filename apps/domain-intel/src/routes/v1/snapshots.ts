import { Readable } from 'node:stream';
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { Envelope, SnapshotInfo } from '@repo/contracts/domain-intel';
import { appError } from '../../error-catalogue.ts';
import { ok } from '../../http/envelope.ts';
import { requirePlanFeature } from '../../http/plan-gate.ts';
import { errorResponses, keyedErrorResponses } from '../../http/schemas.ts';
import { assertSnapshotDate } from '../../zones/index.ts';

const snapshotsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tracked = () => app.ctx.config.TRACKED_TLDS;
  const trackedTld = (raw: string) => {
    const tld = raw.trim().toLowerCase();
    if (!tracked().includes(tld)) {
      throw appError('unknown_tld', `No snapshots of "${raw}"; tracked: ${tracked().join(', ')}.`, {
        details: {
          parameter: 'tld',
        },
      });
    }
    return tld;
  };

  app.get(
    '/snapshots',
    {
      schema: {
        summary: 'Daily zone snapshots (Enterprise)',
        description: 'Every snapshot held, newest first, optionally of one TLD.',
        tags: ['snapshots'],
        querystring: Type.Object({ tld: Type.Optional(Type.String({ description: 'One tracked TLD' })) }),
        response: { 200: Envelope(Type.Array(SnapshotInfo)), ...keyedErrorResponses },
      },
    },
    async (request) => {
      requirePlanFeature(request, 'snapshots', 'Zone snapshots');
      const { tld } = request.query;
      const records = await app.ctx.zones.listSnapshots(tld === undefined ? undefined : trackedTld(tld));
      const rows = records
        .filter((record) => tracked().includes(record.tld))
        .sort((a, b) => (a.date === b.date ? (a.tld < b.tld ? -1 : 1) : a.date < b.date ? 1 : -1))
        .map(
          (record): SnapshotInfo => ({
            tld: record.tld,
            date: record.date,
            names: record.names,
            bytes: record.bytes,
            imported_at: new Date(record.imported_at).toISOString(),
            download: `/v1/snapshots/${record.tld}/${record.date}`,
          }),
        );
      return ok(request, rows, { total: rows.length });
    },
  );

  app.get(
    '/snapshots/:tld/:date',
    {
      schema: {
        summary: 'Download one daily zone snapshot (Enterprise)',
        description: 'The sorted, de-duplicated names delegated in the zone that day, one per line, streamed.',
        tags: ['snapshots'],
        params: Type.Object({ tld: Type.String(), date: Type.String() }),
        response: {
          200: Type.Unsafe<Readable>({ description: 'text/plain, one name per line', type: 'string' }),
          ...errorResponses(404),
          ...keyedErrorResponses,
        },
      },
    },
    async (request, reply) => {
      requirePlanFeature(request, 'snapshots', 'Zone snapshots');
      const params = request.params;
      const tld = trackedTld(params.tld);
      const date = assertSnapshotDate(params.date);
      if (!(await app.ctx.snapshots.has(tld, date))) {
        throw appError('snapshot_not_found', `No snapshot of .${tld} for ${date}.`);
      }
      reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${tld}-${date}.txt"`);
      return reply.send(Readable.from(app.ctx.snapshots.readChunks(tld, date)));
    },
  );
};

export default snapshotsRoutes;
