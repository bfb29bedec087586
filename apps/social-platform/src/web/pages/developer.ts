import { isAppError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Application, appNotFound, permissionsOf } from '../../applications/applications-service.ts';
import { PERMISSION_NAMES, PERMISSIONS } from '../../applications/permissions.ts';
import { appError } from '../../error-catalogue.ts';
import { canvasFrameUrl, canvasOriginProblem } from '../canvas-url.ts';
import { type FlashKey, setFlash } from '../flash.ts';
import { type FieldErrors, textFields } from '../forms.ts';
import { passNewSecret } from '../new-secret-cookie.ts';
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
      // Shown once, on the app's Secret and callbacks page, which the new app's row links to.
      passNewSecret(reply, created.id, created.secret, web.cookies.secure);
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

  const appParams = {
    type: 'object',
    required: ['appId'],
    properties: { appId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
  } as const;
  type AppRequest = FastifyRequest<{ Params: { appId: number } }>;

  /** The viewer's own app; someone else's is "not found", as if it did not exist. */
  const ownApp = async (request: AppRequest) => {
    const viewer = requireViewer(request);
    const application = await ctx.apps.findById(request.params.appId);
    if (!application || application.owner_id !== viewer.user.id) throw appNotFound(request.params.appId);
    return { viewer, application };
  };

  const renderConsole = async (
    request: AppRequest,
    reply: FastifyReply,
    application: Application,
    form: {
      values?: Record<string, string>;
      permissions?: string[];
      errors?: FieldErrors;
      status?: number;
      /** A test user's launch just asked for: its one-time key and the canvas URL carrying it. */
      launch?: { fullName: string; key: string; url: string };
    } = {},
  ) => {
    const [allTesters, usage, testUsers] = await Promise.all([
      ctx.apps.testers(application.id),
      ctx.usage.recent(application.id, 14),
      ctx.testUsers.list(application.id),
    ]);
    // Test users are testers too (so the app opens for them in development mode), listed apart.
    const testUserIds = new Set(testUsers.map((user) => user.id));
    const testers = allTesters.filter((tester) => !testUserIds.has(tester.id));
    const chosen = new Set(form.permissions ?? permissionsOf(application));
    return renderPage(
      request,
      reply,
      'developer-app.eta',
      {
        title: `${application.name} · Developer`,
        application: {
          id: application.id,
          name: application.name,
          status: application.status,
          published: application.published === 1,
        },
        values: form.values ?? {
          name: application.name,
          description: application.description,
          iconUrl: application.icon_url ?? '',
          canvasUrl: application.canvas_url,
        },
        permissions: PERMISSION_NAMES.map((name) => ({ name, text: PERMISSIONS[name], checked: chosen.has(name) })),
        errors: form.errors ?? {},
        testers,
        testUsers: testUsers.map((user) => ({ id: user.id, userName: user.user_name, fullName: user.full_name })),
        launch: form.launch,
        usage,
        totals: usage.reduce((sum, row) => ({ calls: sum.calls + row.calls, errors: sum.errors + row.errors }), {
          calls: 0,
          errors: 0,
        }),
      },
      form.status ?? 200,
    );
  };

  app.get<{ Params: { appId: number } }>(
    '/developer/apps/:appId',
    { schema: { params: appParams } },
    async (request, reply) => renderConsole(request, reply, (await ownApp(request)).application),
  );

  app.post<{ Params: { appId: number } }>(
    '/developer/apps/:appId',
    { schema: { params: appParams }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const { application } = await ownApp(request);
      const values = textFields(request.body, ['name', 'description', 'iconUrl', 'canvasUrl']);
      const raw = (request.body as { permissions?: unknown } | undefined)?.permissions;
      const permissions = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
        (value): value is string => typeof value === 'string',
      );
      const urlProblem = canvasOriginProblem(values.canvasUrl.trim(), [
        web.publicOrigin,
        `${request.protocol}://${request.host}`,
      ]);
      if (urlProblem) {
        return renderConsole(request, reply, application, {
          values,
          permissions,
          errors: { canvasUrl: urlProblem },
          status: 400,
        });
      }
      try {
        await ctx.apps.update(application.id, { ...values, permissions });
      } catch (error) {
        if (!isAppError(error) || error.code !== 'invalid_application') throw error;
        const [field, ...rest] = error.message.split(': ');
        const message = rest.join(': ') || error.message;
        const name = ['name', 'description', 'iconUrl', 'canvasUrl'].includes(field ?? '') ? field! : '_form';
        const sentence = message.charAt(0).toUpperCase() + message.slice(1) + (message.endsWith('.') ? '' : '.');
        return renderConsole(request, reply, application, {
          values,
          permissions,
          errors: { [name]: sentence },
          status: 400,
        });
      }
      setFlash(reply, 'app_saved', web.cookies.secure);
      return reply.redirect(`/developer/apps/${application.id}`, 303);
    },
  );

  /** A one-field form of the console: publish, disable, delete, testers. */
  const action = (
    path: string,
    run: (application: Application, fields: Record<'value' | 'userName' | 'userId', string>) => Promise<FlashKey>,
    redirectTo: (application: Application) => string = (application) => `/developer/apps/${application.id}`,
  ) =>
    app.post<{ Params: { appId: number } }>(
      `/developer/apps/:appId/${path}`,
      { schema: { params: appParams }, preHandler: app.csrfProtection },
      async (request, reply) => {
        const { application } = await ownApp(request);
        const fields = textFields(request.body, ['value', 'userName', 'userId'] as const);
        setFlash(reply, await run(application, fields), web.cookies.secure);
        return reply.redirect(redirectTo(application), 303);
      },
    );

  action('publish', async (application, { value }) => {
    const published = value === '1';
    await ctx.apps.setPublished(application.id, published);
    return published ? 'app_published' : 'app_unpublished';
  });
  action('status', async (application, { value }) => {
    if (value === 'disabled') {
      await ctx.apps.setStatus(application.id, 'disabled');
      await ctx.appAuth.revokeAllForApp(application.id);
      return 'app_disabled';
    }
    await ctx.apps.setStatus(application.id, 'active');
    return 'app_enabled';
  });
  action(
    'delete',
    async (application) => {
      await ctx.apps.delete(application.id);
      return 'app_deleted';
    },
    () => '/developer',
  );
  action('testers', async (application, { userName }) => {
    const tester = await ctx.users.findByUserName(userName);
    if (!tester) throw appError('user_not_found', `There is no user @${userName.trim()}.`);
    await ctx.apps.addTester(application.id, tester.id);
    return 'tester_added';
  });
  action('testers/remove', async (application, { userId }) => {
    await ctx.apps.removeTester(application.id, Number(userId));
    return 'tester_removed';
  });

  /** Test users (users/test-users.ts): made here, befriended here, launched from here. */
  action('test-users', async (application, { value }) => {
    const user = await ctx.testUsers.create(application.id, value);
    await ctx.apps.addTester(application.id, user.id);
    return 'test_user_created';
  });
  action('test-users/friends', async (application, { userId, value }) => {
    const a = await ctx.testUsers.get(application.id, Number(userId));
    const b = await ctx.testUsers.get(application.id, Number(value));
    await ctx.friends.befriend(a.id, b.id);
    for (const [user, other] of [
      [a, b],
      [b, a],
    ] as const) {
      await ctx.notifications.add(user.id, {
        message: `You and ${other.full_name} are now friends.`,
        link: '/friends',
      });
    }
    return 'test_users_befriended';
  });

  // As the test user's own settings would (they never sign in): the grant goes, its tokens are revoked
  // and the app is told (app.deauthorized), through the same removal as a real user's.
  action('test-users/remove-app', async (application, { userId }) => {
    const user = await ctx.testUsers.get(application.id, Number(userId));
    await ctx.appRemoval.remove(application.id, user.id);
    return 'test_user_app_removed';
  });

  // A one-time key for a test user, as the canvas would give it: the developer opens the app with it
  // (test users never sign in, so the platform's canvas page is not theirs). The user allows what the
  // app asks for, as a real user does on the consent page.
  app.post<{ Params: { appId: number } }>(
    '/developer/apps/:appId/test-users/launch',
    { schema: { params: appParams }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const { application } = await ownApp(request);
      const { userId } = textFields(request.body, ['userId'] as const);
      const user = await ctx.testUsers.get(application.id, Number(userId));
      await ctx.grants.grant(application.id, user.id, permissionsOf(application));
      const key = await ctx.appAuth.issueAppKey(application.id, user.id);
      // The launch the canvas would give: the key with the signed app_id, user_id, platform_origin and ts.
      const url = canvasFrameUrl({
        canvasUrl: application.canvas_url,
        key,
        appId: application.id,
        userId: user.id,
        platformOrigin: new URL(`${request.protocol}://${request.host}`).origin,
        secret: ctx.apps.secretOf(application),
        ts: Math.floor(ctx.clock.now() / 1000),
      });
      return renderConsole(request, reply, application, { launch: { fullName: user.full_name, key, url: url.href } });
    },
  );
}
