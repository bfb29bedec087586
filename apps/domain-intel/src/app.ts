import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  checkpointOnceListening,
  createFastify,
  healthRoutes,
  installErrorHandling,
  metricsAccess,
  metricsPlugin,
} from '@repo/server-kit';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { stripeHostedOrigins, stripeSettings } from './billing/stripe-client.ts';
import type { Config } from './config.ts';
import { type AppContext, type ContextOverrides, createContext } from './context.ts';
import { answerAccountSchemaErrors } from './http/account-validation.ts';
import { apiHeaders } from './http/api-headers.ts';
import { apiReference } from './http/api-reference.ts';
import { authentication } from './http/authentication.ts';
import { documentFrameworkErrors } from './http/documented-errors.ts';
import { renderError } from './http/envelope.ts';
import { pages } from './http/pages.ts';
import { publicUrlOf } from './http/public-url.ts';
import { rdapPlanMetrics } from './http/rdap-plan-metrics.ts';
import { rdapRateMetrics } from './http/rdap-rate-metrics.ts';
import { refuseRepeatedQueryParameters } from './http/repeated-parameters.ts';
import { errorSchemas } from './http/schemas.ts';
import { refuseUnknownQueryParameters } from './http/unknown-parameters.ts';
import { openApiWebhooks } from './http/webhook-docs.ts';
import { jobsScheduler } from './jobs/scheduler-plugin.ts';
import { accountApiRoutes } from './routes/account/index.ts';
import { billingWebhookRoute } from './routes/billing-webhook.ts';
import { dashboardRoutes } from './routes/dashboard/index.ts';
import { guidePages } from './routes/guides.ts';
import { openApiDocument } from './routes/openapi.ts';
import { sitePages } from './routes/pages.ts';
import { signupRoutes } from './routes/signup.ts';
import { crossOrigin } from './routes/v1/cross-origin.ts';
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
    renderClientError: renderError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ctx = options.context ?? (await createContext(config, { log: app.log, ...options }));
  app.decorate('ctx', ctx);
  app.decorateRequest('caller', undefined);
  if (!options.context) app.addHook('onClose', async () => ctx.close());
  checkpointOnceListening(app, ctx.database);

  installErrorHandling(app, (error, request) => renderError(error, request.id));
  for (const schema of errorSchemas) app.addSchema(schema);
  refuseRepeatedQueryParameters(app);
  documentFrameworkErrors(app);

  await app.register(swagger, {
    // Components keep their schema's $id (Error404, …) instead of def-0, def-1: the names a
    // generated client shows.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Domain Intelligence API',
        version: '1.0.0',
        description:
          'Live availability, structured WHOIS through RDAP, keyword suggestions and a feed of confirmed-dropped domains. ' +
          'Authenticate with `Authorization: Bearer di_live_…`. Every keyed response carries X-RateLimit-Limit, ' +
          'X-RateLimit-Remaining and X-RateLimit-Reset (the Unix time, in seconds, at which the quota resets). ' +
          'Every error is `{"error": {"code", "message", "request_id", "docs"}}`; the codes are listed at /docs/errors.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (di_live_…)' } },
      },
      security: [{ bearer: [] }],
      // What we POST to an account's webhook targets (OpenAPI 3.1), from the contracts' event schemas.
      webhooks: openApiWebhooks(),
    },
  });
  await app.register(metricsPlugin, { prefix: 'domain_intel_', access: metricsAccess(config) });
  await app.register(rdapPlanMetrics);
  await app.register(rdapRateMetrics);

  await app.register(async (json) => {
    await json.register(apiHeaders);
    await json.register(healthRoutes(() => ({ db: ctx.database.db, redis: ctx.redis })));
    await json.register(openApiDocument);
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
          // The billing forms answer with a redirect to Stripe's hosted pages.
          formAction: ["'self'", ...stripeHostedOrigins(stripeSettings(config))],
          frameAncestors: ["'none'"],
          // Served over plain http (the demo, a private network), an upgrade would send the page's
          // own scripts and styles to an https port that does not answer.
          upgradeInsecureRequests: publicUrlOf(config).startsWith('https:') ? [] : null,
        },
      },
    });
    await html.register(apiReference);
    await html.register(pages);
    await html.register(sitePages);
    await html.register(guidePages);
    await html.register(signupRoutes);
    await html.register(dashboardRoutes);
  });
  await app.register(
    async (v1) => {
      await v1.register(crossOrigin);
      await v1.register(apiHeaders);
      await v1.register(authentication);
      refuseUnknownQueryParameters(v1);
      await v1.register(v1Routes);
      if (options.extraV1Routes) await v1.register(options.extraV1Routes);
    },
    { prefix: '/v1' },
  );
  await app.register(
    async (account) => {
      await account.register(apiHeaders);
      await account.register(authentication);
      answerAccountSchemaErrors(account);
      await account.register(accountApiRoutes);
    },
    { prefix: '/account' },
  );
  return app;
}
