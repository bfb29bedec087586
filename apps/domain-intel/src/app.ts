import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorEnvelope } from '@repo/contracts/domain-intel';
import { createFastify, healthRoutes, installErrorHandling, metricsPlugin } from '@repo/server-kit';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { billingWebhookRoute } from './billing/webhook-route.ts';
import type { Config } from './config.ts';
import { type AppContext, type ContextOverrides, createContext } from './context.ts';
import { dashboardRoutes } from './dashboard/index.ts';
import { apiHeaders } from './http/api-headers.ts';
import { authentication } from './http/authentication.ts';
import { renderError } from './http/envelope.ts';
import { pages } from './http/pages.ts';
import { jobsScheduler } from './jobs/scheduler-plugin.ts';
import { accountApiRoutes } from './routes/account/index.ts';
import { signupRoutes } from './routes/signup.ts';
import { v1Routes } from './routes/v1/index.ts';
import { zoneIndexRefresher } from './zone-index/refresh-plugin.ts';
import './http/route-config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export interface BuildOptions extends ContextOverrides {
  /** Tests pass false for quiet output. */
  logger?: boolean;
  /** Where log lines go (default stdout). */
  logStream?: NodeJS.WritableStream;
  /** Use this context instead of creating one (the caller then owns closing it). */
  context?: AppContext;
  /**
   * Extra routes mounted inside the authenticated /v1 scope. Benchmarks and tests use it to
   * measure the key + quota pipeline with a trivial handler.
   */
  extraV1Routes?: FastifyPluginAsync;
}

/** Builds the Domain Intelligence API. No side effects beyond the database it opens. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = createFastify({
    logLevel: config.LOG_LEVEL,
    trustProxy: config.TRUST_PROXY,
    logger: options.logger,
    logStream: options.logStream,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ctx = options.context ?? (await createContext(config, { log: app.log, ...options }));
  app.decorate('ctx', ctx);
  app.decorateRequest('caller', undefined);
  if (!options.context) app.addHook('onClose', async () => ctx.close());

  installErrorHandling(app, (error, request) => renderError(error, request));
  app.addSchema(ErrorEnvelope);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Domain Intelligence API',
        version: '1.0.0',
        description:
          'Live availability, structured WHOIS through RDAP, keyword suggestions and a feed of confirmed-dropped domains. ' +
          'Authenticate with `Authorization: Bearer di_live_…`. Every keyed response carries X-RateLimit-Limit, ' +
          'X-RateLimit-Remaining and X-RateLimit-Reset.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (di_live_…)' } },
      },
      security: [{ bearer: [] }],
    },
  });
  await app.register(metricsPlugin, { prefix: 'domain_intel_' });

  await app.register(async (json) => {
    await json.register(apiHeaders);
    await json.register(healthRoutes(() => ({ db: ctx.database.db, redis: ctx.redis })));
    json.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
  await app.register(billingWebhookRoute);
  await app.register(zoneIndexRefresher);
  await app.register(jobsScheduler);
  // The HTML pages get helmet's full policy; the JSON API its fixed headers (http/api-headers.ts),
  // which cost nothing per request.
  await app.register(async (html) => {
    await html.register(helmet, {
      // The API reference page (swagger-ui) loads its own inline script and styles.
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", "'unsafe-inline'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
    });
    await html.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
    await html.register(pages);
    await html.register(signupRoutes);
    await html.register(dashboardRoutes);
  });
  await app.register(
    async (v1) => {
      // Keys are bearer tokens, never ambient credentials, so any origin may call the API from a
      // browser (the SDK works there); callers can read the quota headers.
      await v1.register(cors, {
        origin: '*',
        methods: ['GET'],
        allowedHeaders: ['Authorization'],
        exposedHeaders: [
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
          'Retry-After',
          'X-Request-Id',
        ],
        maxAge: 86_400,
      });
      await v1.register(apiHeaders);
      await v1.register(authentication);
      await v1.register(v1Routes);
      if (options.extraV1Routes) await v1.register(options.extraV1Routes);
    },
    { prefix: '/v1' },
  );
  await app.register(
    async (account) => {
      await account.register(apiHeaders);
      await account.register(authentication);
      await account.register(accountApiRoutes);
    },
    { prefix: '/account' },
  );
  return app;
}
