import { isAppError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canvasOriginProblem } from '../canvas-url.ts';
import { setFlash } from '../flash.ts';
import { type FieldErrors, textFields } from '../forms.ts';
import { renderPage } from '../render.ts';
import { requireViewer, type Viewer } from '../viewer.ts';

const createdQuery = {
  type: 'object',
  properties: { created: { type: 'integer', minimum: 1 } },
} as const;

/** Field names of the applications service's validation messages (`canvasUrl: must be …`). */
const SERVICE_FIELDS: Record<string, string> = { name: 'name', canvasUrl: 'canvasUrl' };

/** The developer area: register an app (name and canvas URL → APP ID) and list one's own. */
export async function developerPages(app: FastifyInstance): Promise<void> {
  const { platform: ctx, web } = app;

  const renderDeveloper = async (
    request: FastifyRequest,
    reply: FastifyReply,
    viewer: Viewer,
    form: { values: Record<string, string>; errors: FieldErrors; status: number; createdId?: number },
  ) => {
    const apps = await ctx.apps.listByOwner(viewer.user.id);
    return renderPage(
      request,
      reply,
      'developer.eta',
      {
        title: 'Developer',
        apps: apps.map((item) => ({
          id: item.id,
          name: item.name,
          canvasUrl: item.canvas_url,
          status: item.status,
          isNew: item.id === form.createdId,
        })),
        values: form.values,
        errors: form.errors,
      },
      form.status,
    );
  };

  app.get<{ Querystring: { created?: number } }>(
    '/developer',
    { schema: { querystring: createdQuery } },
    async (request, reply) => {
      const viewer = requireViewer(request);
      return renderDeveloper(request, reply, viewer, {
        values: {},
        errors: {},
        status: 200,
        createdId: request.query.created,
      });
    },
  );

  app.post('/developer/apps', { preHandler: app.csrfProtection }, async (request, reply) => {
    const viewer = requireViewer(request);
    const values = textFields(request.body, ['name', 'canvasUrl']);
    const errors: FieldErrors = {};
    if (values.name.trim() === '') errors.name = 'Give your app a name.';
    const urlProblem = values.canvasUrl.trim()
      ? canvasOriginProblem(values.canvasUrl.trim(), [web.publicOrigin, `${request.protocol}://${request.host}`])
      : 'Enter the address of your app’s canvas page.';
    if (urlProblem) errors.canvasUrl = urlProblem;
    if (Object.keys(errors).length > 0) return renderDeveloper(request, reply, viewer, { values, errors, status: 400 });
    try {
      const created = await ctx.apps.create({
        name: values.name,
        canvasUrl: values.canvasUrl,
        ownerId: viewer.user.id,
      });
      setFlash(reply, 'app_created', web.cookies.secure);
      return reply.redirect(`/developer?created=${created.id}`, 303);
    } catch (error) {
      if (!isAppError(error) || error.code !== 'invalid_application') throw error;
      const [field, ...rest] = error.message.split(': ');
      const name = SERVICE_FIELDS[field ?? ''] ?? '_form';
      const message = rest.join(': ') || error.message;
      const sentence = message.charAt(0).toUpperCase() + message.slice(1) + (message.endsWith('.') ? '' : '.');
      return renderDeveloper(request, reply, viewer, { values, errors: { [name]: sentence }, status: 400 });
    }
  });
}
