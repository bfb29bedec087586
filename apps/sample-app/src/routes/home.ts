import type { FastifyInstance } from 'fastify';
import { formatJoined, httpUrl, loadDashboard } from '../dashboard.ts';
import { requireSession } from '../session-cookie.ts';

const homeQuery = {
  type: 'object',
  properties: { friends_page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 } },
} as const;

export async function homeRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: { friends_page: number } }>(
    '/home',
    { schema: { querystring: homeQuery } },
    async (request, reply) => {
      const session = requireSession(request);
      const dashboard = await loadDashboard(app.sample.platform, session.token, request.query.friends_page);
      // Responses hold private data of one user: never cache them anywhere.
      reply.header('Cache-Control', 'no-store');
      return reply.view('home.eta', {
        title: `Hello, ${dashboard.user.full_name}`,
        dashboard,
        joined: formatJoined(dashboard.user.joined),
        formToken: session.formToken,
        maxUploadMb: app.sample.config.MAX_UPLOAD_MB,
        httpUrl,
      });
    },
  );
}
