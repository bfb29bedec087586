import swagger from '@fastify/swagger';
import {
  checkpointOnceListening,
  createFastify,
  healthRoutes,
  installErrorHandling,
  metricsAccess,
  metricsPlugin,
} from '@repo/server-kit';
import type { FastifyInstance } from 'fastify';
import { renderApiError } from './api/envelope.ts';
import { API_RECORD_SCHEMAS } from './api/openapi.ts';
import type { Config } from './config.ts';
import { type AppContext, type ContextOverrides, createContext } from './context.ts';
import { refuseControlCharacters } from './http/control-characters.ts';
import { apiRoutes } from './routes/api-routes.ts';
import { canvasScriptRoutes } from './routes/canvas-script-routes.ts';
import { dataDeletionRoutes } from './routes/data-deletion-routes.ts';
import { iconRoutes } from './routes/icon-routes.ts';
import { mediaRoutes } from './routes/media-routes.ts';
import { openApiRoutes } from './routes/openapi-routes.ts';
import webRoutes from './routes/web/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The platform's services (users, friends, mail, notifications, photos, apps, appAuth …).
     * Named `platform` because domain-intel already declares `ctx` on FastifyInstance with
     * its own context type, and both apps are type-checked together.
     */
    platform: AppContext;
  }
}

export interface BuildOptions extends ContextOverrides {
  /** Tests pass false for quiet output. */
  logger?: boolean;
  /** Use this context instead of creating one (the caller then owns closing it). */
  context?: AppContext;
}

/** Builds the social platform: Application API, media, web pages. No side effects beyond its database. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = createFastify({
    logLevel: config.LOG_LEVEL,
    trustProxy: config.TRUST_PROXY,
    logger: options.logger,
    requestTimeoutMs: config.REQUEST_TIMEOUT_SECONDS * 1000,
    renderClientError: (error) => renderApiError(error),
  });
  const ctx = options.context ?? (await createContext(config, { log: app.log, ...options }));
  app.decorate('platform', ctx);
  if (!options.context) app.addHook('onClose', async () => ctx.close());
  checkpointOnceListening(app, ctx.database);

  // The web pages answer unknown addresses: an HTML page for people, the envelope for API paths.
  installErrorHandling(app, (error) => renderApiError(error), { notFound: false });
  refuseControlCharacters(app);
  await app.register(swagger, {
    // The document describes the Application API (its routes are tagged); web pages stay out.
    hideUntagged: true,
    // Components keep the contracts' names (User, Friend, Photo …) instead of def-0, def-1 …
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Social platform Application API',
        version: '1.0.0',
        description:
          'Apps shown in the platform canvas receive a one-time `key`, trade it at `/token.php` for a token, and call ' +
          '`/api.php?token=…&method=module.name`. Every answer, errors included, is the envelope ' +
          '`{"api": {"total", "pages", "current_page"}, "output": …}`.',
      },
      servers: [{ url: config.PUBLIC_URL }],
    },
  });
  // The records of api.php, as components the method outputs point at.
  for (const schema of API_RECORD_SCHEMAS) app.addSchema(schema);
  await app.register(openApiRoutes);
  await app.register(metricsPlugin, { prefix: 'social_platform_', access: metricsAccess(config) });

  await app.register(healthRoutes(() => ({ db: ctx.database.db, redis: ctx.redis })));
  await app.register(apiRoutes);
  await app.register(mediaRoutes);
  await app.register(iconRoutes);
  await app.register(canvasScriptRoutes);
  await app.register(dataDeletionRoutes);
  await app.register(webRoutes);
  return app;
}
