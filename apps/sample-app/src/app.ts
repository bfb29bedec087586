import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import view from '@fastify/view';
import { Eta } from 'eta';
import Fastify, { type FastifyInstance } from 'fastify';
import type { SampleAppConfig } from './config.ts';
import { installErrorPages } from './error-pages.ts';
import { loggerOptions } from './logging.ts';
import { PlatformClient } from './platform-client.ts';
import { assetRoutes } from './routes/assets.ts';
import { canvasRoutes } from './routes/canvas.ts';
import { homeRoutes } from './routes/home.ts';
import { photoRoutes } from './routes/photos.ts';
import { platformEventRoutes } from './routes/platform-events.ts';
import { SESSION_COOKIE } from './session-cookie.ts';
import { SessionStore } from './sessions.ts';
import type { PlatformEvent } from './signatures.ts';

const VIEWS_DIR = fileURLToPath(new URL('./views', import.meta.url));

export interface SampleAppContext {
  config: SampleAppConfig;
  platform: PlatformClient;
  sessions: SessionStore;
  /** The platform's origin: the only one allowed to frame the app, the source of its images and of /js/canvas.js. */
  platformOrigin: string;
  /** The app's clock (ms): launches and callbacks are judged fresh by it. */
  now: () => number;
  /** The platform's callbacks this process took, oldest first (routes/platform-events.ts). */
  events: PlatformEvent[];
}

declare module 'fastify' {
  interface FastifyInstance {
    sample: SampleAppContext;
  }
  interface FastifyReply {
    /** Data every template of this reply sees (@fastify/view merges it; its types leave it out). */
    locals: Record<string, unknown> | null;
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
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.LOG_LEVEL),
    trustProxy: config.TRUST_PROXY,
  });
  const platformOrigin = new URL(config.PLATFORM_URL).origin;
  const platformBase = config.PLATFORM_URL.endsWith('/') ? config.PLATFORM_URL : `${config.PLATFORM_URL}/`;
  app.decorate('sample', {
    config,
    platformOrigin,
    platform: new PlatformClient({ baseUrl: config.PLATFORM_URL, timeoutMs: config.PLATFORM_TIMEOUT_MS }),
    sessions: new SessionStore(config.SESSION_TTL_MINUTES * 60_000, options.now),
    now: options.now ?? Date.now,
    events: [],
  } satisfies SampleAppContext);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        // The one script: the platform's /js/canvas.js (iframe height, reopening). No inline code.
        scriptSrc: [platformOrigin],
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
    defaultContext: {
      platformUrl: config.PLATFORM_URL,
      canvasScriptUrl: new URL('js/canvas.js', platformBase).toString(),
    },
  });
  // Every page loads /js/canvas.js with the platform origin the session was opened with; a page
  // without a session leaves it out, and the script falls back to what this frame remembered.
  app.addHook('preHandler', async (request, reply) => {
    const session = app.sample.sessions.get(request.cookies[SESSION_COOKIE]);
    reply.locals = { ...reply.locals, platformOrigin: session?.platformOrigin };
  });
  installErrorPages(app);

  await app.register(assetRoutes);
  await app.register(canvasRoutes);
  await app.register(homeRoutes);
  await app.register(photoRoutes);
  await app.register(platformEventRoutes);
  return app;
}
