import closeWithGrace from 'close-with-grace';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { loggerOptions } from './logger.ts';
import { genReqId } from './request-id.ts';

export interface ServerOptions {
  logLevel: string;
  trustProxy: boolean | number | string[];
  bodyLimit?: number;
  /** Tests pass `false` to keep output quiet. */
  logger?: boolean;
  /** Where log lines go (default stdout); tests read them to check what is logged. */
  logStream?: NodeJS.WritableStream;
}

/** Fastify options both services start from. */
export function fastifyOptions(options: ServerOptions): FastifyServerOptions {
  return {
    logger:
      options.logger === false
        ? false
        : { ...loggerOptions(options.logLevel), ...(options.logStream ? { stream: options.logStream } : {}) },
    genReqId,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    // Fastify accepts a hop count at run time; its type declaration omits it.
    trustProxy: options.trustProxy as boolean | string[],
    bodyLimit: options.bodyLimit ?? 1_048_576,
    routerOptions: { maxParamLength: 512, ignoreTrailingSlash: true },
    ajv: {
      customOptions: {
        coerceTypes: 'array',
        removeAdditional: false,
        useDefaults: true,
        allErrors: false,
      },
    },
  };
}

export function createFastify(options: ServerOptions): FastifyInstance {
  return Fastify(fastifyOptions(options));
}

/** Listens and closes gracefully on SIGINT/SIGTERM, finishing requests in flight. */
export async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  return app.listen({ host, port });
}
