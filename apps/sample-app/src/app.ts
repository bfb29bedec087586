import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import view from '@fastify/view';
import { createFastify } from '@repo/server-kit';
import { Eta } from 'eta';
import type { FastifyInstance } from 'fastify';
import type { SampleAppConfig } from './config.ts';
import { installErrorPages } from './error-pages.ts';
import { PlatformClient } from './platform-client.ts';
import { assetRoutes } from './routes/assets.ts';
import { canvasRoutes } from './routes/canvas.ts';
import { homeRoutes } from './routes/home.ts';
import { photoRoutes } from './routes/photos.ts';
import { SessionStore } from './sessions.ts';

const VIEWS_DIR = fileURLToPath(new URL('./views', import.meta.url));

export interface SampleAppContext {
  config: SampleAppConfig;
  platform: PlatformClient;
  sessions: SessionStore;
  /** The platform's origin: the only one allowed to frame the app and the source of its images. */
  platformOrigin: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    sample: SampleAppContext;
  }
}

export interface BuildSampleAppOptions {
  /** Tests pass false for quiet output. */
  logger?: boolean;
  /** Tests move time forward to expire sessions. */
  now?: () => number;
}

/** Builds the sample app: no side effects beyond the server object it returns. */
export async function buildSampleApp(
  config: SampleAppConfig,
  options: BuildSampleAppOptions = {},
): Promise<FastifyInstance> {
  const app = createFastify({ logLevel: config.LOG_LEVEL, trustProxy: config.TRUST_PROXY, logger: options.logger });
  const platformOrigin = new URL(config.PLATFORM_URL).origin;
  app.decorate('sample', {
    config,
    platformOrigin,
    platform: new PlatformClient({ baseUrl: config.PLATFORM_URL, timeoutMs: config.PLATFORM_TIMEOUT_MS }),
    sessions: new SessionStore(config.SESSION_TTL_MINUTES * 60_000, options.now),
  } satisfies SampleAppContext);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: ["'self'"],
        // Profile pictures and photos are served by the platform's media route.
        imgSrc: ["'self'", 'data:', platformOrigin],
        formAction: ["'self'"],
        baseUri: ["'none'"],
        // Only the platform may show the app, and only inside its canvas.
        frameAncestors: [platformOrigin],
      },
    },
    // X-Frame-Options cannot name another origin; frame-ancestors above replaces it.
    xFrameOptions: false,
  });
  await app.register(cookie);
  await app.register(multipart, {
    limits: { fileSize: config.MAX_UPLOAD_MB * 1024 * 1024, files: 1, fields: 5, fieldSize: 4096 },
  });
  await app.register(view, {
    engine: { eta: new Eta({ views: VIEWS_DIR, cache: config.NODE_ENV === 'production' }) },
    templates: VIEWS_DIR,
    production: config.NODE_ENV === 'production',
    defaultContext: { platformUrl: config.PLATFORM_URL },
  });
  installErrorPages(app);

  await app.register(assetRoutes);
  await app.register(canvasRoutes);
  await app.register(homeRoutes);
  await app.register(photoRoutes);
  return app;
}
