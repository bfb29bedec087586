import { isAppError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Application, appNotFound } from '../../applications/applications-service.ts';
import { WEBHOOK_KEY_LABEL } from '../../callbacks/webhook-secret.ts';
import { type FlashKey, setFlash } from '../flash.ts';
import { type FieldErrors, textFields } from '../forms.ts';
import { passNewSecret, takeNewSecret } from '../new-secret-cookie.ts';
import { renderPage } from '../render.ts';
import { requireViewer } from '../viewer.ts';

const appParams = {
  type: 'object',
  required: ['appId'],
  properties: { appId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;
type AppRequest = FastifyRequest<{ Params: { appId: number } }>;

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/**
 * The console's "Secret and callbacks" page of an app: its secret (shown once after creation or
 * rotation), whether token.php requires a signed exchange, the callback URL and the delivery log of
 * its events with Redeliver.
 */
export async function developerCredentialPages(app: FastifyInstance): Promise<void> {
  const { platform: ctx, web } = app;
  const pagePath = (application: Application) => `/developer/apps/${application.id}/credentials`;

  /** The viewer's own app; someone else's is "not found", as if it did not exist. */
  const ownApp = async (request: AppRequest) => {
    const viewer = requireViewer(request);
    const application = await ctx.apps.findById(request.params.appId);
    if (!application || application.owner_id !== viewer.user.id) throw appNotFound(request.params.appId);
    return application;
  };

  const render = async (
    request: AppRequest,
    reply: FastifyReply,
    application: Application,
    form: { callbackUrl?: string; errors?: FieldErrors; status?: number } = {},
  ) => {
    const events = await ctx.appEvents.recent(application.id);
    return renderPage(
      request,
      reply,
      'developer-credentials.eta',
      {
        title: `${application.name} · Secret and callbacks`,
        application: {
          id: application.id,
          name: application.name,
          requireSignedExchange: application.require_signed_exchange === 1,
          hasCallback: application.callback_url !== null,
        },
        newSecret: takeNewSecret(request, reply, ctx.apps, [application], web.cookies.secure)?.secret,
        webhookKeyLabel: WEBHOOK_KEY_LABEL,
        values: { callbackUrl: form.callbackUrl ?? application.callback_url ?? '' },
        errors: form.errors ?? {},
        events: events.map((event) => ({
          id: event.id,
          type: event.type,
          state: event.state,
          createdAt: time(event.created_at),
          attempts: event.attempts,
          lastStatus: event.last_status,
          lastError: event.last_error,
          nextAttemptAt: event.state === 'pending' && event.attempts > 0 ? time(event.next_attempt_at) : null,
        })),
      },
      form.status ?? 200,
    );
  };

  app.get<{ Params: { appId: number } }>(
    '/developer/apps/:appId/credentials',
    { schema: { params: appParams } },
    async (request, reply) => render(request, reply, await ownApp(request)),
  );

  /** A one-field form of the page: redirects back to it with a flash message. */
  const action = (
    path: string,
    run: (application: Application, value: string, reply: FastifyReply) => Promise<FlashKey>,
  ) =>
    app.post<{ Params: { appId: number } }>(
      `/developer/apps/:appId/credentials/${path}`,
      { schema: { params: appParams }, preHandler: app.csrfProtection },
      async (request, reply) => {
        const application = await ownApp(request);
        const { value } = textFields(request.body, ['value'] as const);
        setFlash(reply, await run(application, value, reply), web.cookies.secure);
        return reply.redirect(pagePath(application), 303);
      },
    );

  action('rotate', async (application, _value, reply) => {
    passNewSecret(reply, application.id, await ctx.apps.rotateSecret(application.id), web.cookies.secure);
    return 'secret_rotated';
  });
  action('signing', async (application, value) => {
    await ctx.apps.setSignedExchangeRequired(application.id, value === '1');
    return value === '1' ? 'signing_required' : 'signing_optional';
  });
  action('redeliver', async (application, value) => {
    await ctx.appEvents.redeliver(application.id, value);
    return 'event_redelivered';
  });

  app.post<{ Params: { appId: number } }>(
    '/developer/apps/:appId/credentials/callback',
    { schema: { params: appParams }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const application = await ownApp(request);
      const { callbackUrl } = textFields(request.body, ['callbackUrl'] as const);
      try {
        await ctx.appEvents.setCallbackUrl(application.id, callbackUrl);
      } catch (error) {
        if (!isAppError(error) || error.code !== 'invalid_application') throw error;
        const message = error.message.replace(/^callbackUrl: /, '');
        const sentence = message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.');
        return render(request, reply, application, { callbackUrl, errors: { callbackUrl: sentence }, status: 400 });
      }
      setFlash(reply, 'callback_saved', web.cookies.secure);
      return reply.redirect(pagePath(application), 303);
    },
  );
}
