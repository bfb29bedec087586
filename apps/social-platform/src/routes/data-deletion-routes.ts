import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { envelope, SINGLE_VALUE } from '../api/envelope.ts';
import type { DataDeletionRequest } from '../callbacks/data-deletion.ts';

const params = {
  type: 'object',
  required: ['requestId'],
  properties: { requestId: { type: 'string', pattern: '^del_[A-Za-z0-9_-]{22}$' } },
} as const;

/** What the status URL shows the user and the app: the confirmation code and where the deletion stands. */
const statusOf = (request: DataDeletionRequest) =>
  envelope(SINGLE_VALUE, {
    request_id: request.id,
    app_id: request.app_id,
    status: request.status,
    requested_at: new Date(request.requested_at).toISOString(),
    updated_at: new Date(request.updated_at).toISOString(),
  });

/**
 * The status URL of a data deletion request (`user.data_deletion_requested` carries it): GET reads
 * the status, POST is the app's signed report (`status`, `ts`, `sign`; a form or JSON body).
 * Answers in the Application API's envelope, errors included.
 */
export async function dataDeletionRoutes(app: FastifyInstance): Promise<void> {
  const { dataDeletion } = app.platform;
  await app.register(formbody, { bodyLimit: 4096 });
  app.get<{ Params: { requestId: string } }>(
    '/apps/data-deletion/:requestId',
    { schema: { params } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return statusOf(await dataDeletion.get(request.params.requestId));
    },
  );
  app.post<{ Params: { requestId: string }; Body: Record<string, unknown> | undefined }>(
    '/apps/data-deletion/:requestId',
    { schema: { params }, bodyLimit: 4096 },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const body = request.body ?? {};
      const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
      const updated = await dataDeletion.report(request.params.requestId, {
        status: text('status'),
        ts: typeof body.ts === 'number' ? String(body.ts) : text('ts'),
        sign: text('sign'),
      });
      return statusOf(updated);
    },
  );
}
