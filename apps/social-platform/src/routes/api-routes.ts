import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { TokenAnswer } from '@repo/contracts/platform';
import { toPublicError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { envelope, listPaging, SINGLE_VALUE, serializeAnswer } from '../api/envelope.ts';
import { apiPostSchema, apiRouteSchema, tokenRouteSchema } from '../api/openapi.ts';
import { parseParams } from '../api/params.ts';
import { FILE_FIELDS, readFormInput, readMultipartInput } from '../api/read-input.ts';
import type { ApiCaller } from '../auth/app-auth-service.ts';
import type { PageResult } from '../db/paging.ts';
import { appError } from '../error-catalogue.ts';
import { createRateLimit } from '../http/rate-limit.ts';
import { createMethodRegistry } from '../methods/index.ts';
import { requirePermission } from '../methods/registry.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The app and user behind an api.php call, once its token is checked. */
    apiCaller: ApiCaller | undefined;
    /** The method an api.php call named, once resolved: its usage is counted under it. */
    apiMethod: string | undefined;
    /** The error code an api.php call failed with. */
    apiErrorCode: string | undefined;
  }
}

/**
 * The response headers OWASP's REST Security Cheat Sheet lists for JSON APIs. Answers carry
 * tokens and private data, so nothing may store them; the browser-page headers of helmet
 * (CSP details, COOP, DNS prefetch …) mean nothing on JSON and only add bytes to every call.
 */
const API_SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/** The route's schema is for the OpenAPI document; parameters are checked by the method registry. */
const documentationOnly = {
  validatorCompiler: () => () => true,
  serializerCompiler: () => serializeAnswer,
};

/** token.php and api.php: the Application API. */
export async function apiRoutes(app: FastifyInstance): Promise<void> {
  const { appAuth, config, redis, usage } = app.platform;
  const registry = createMethodRegistry();
  app.decorateRequest('apiCaller', undefined);
  app.decorateRequest('apiMethod', undefined);
  app.decorateRequest('apiErrorCode', undefined);

  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
  // Each call of a known app and method counts in the developer console's usage, failures with their code.
  app.addHook('onError', (request, _reply, error, done) => {
    request.apiErrorCode = toPublicError(error).code;
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.apiCaller && request.apiMethod) {
      usage.record(request.apiCaller.appId, request.apiMethod, request.apiErrorCode);
    }
    done(null, payload);
  });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(multipart, {
    // Two files, so that a second one reaches readMultipartInput and is refused as 400 `unexpected_file`.
    limits: { fileSize: config.UPLOAD_MAX_BYTES, files: 2, fields: 10, fieldSize: 4096, parts: 12 },
    isPartAFile: (fieldName, contentType, fileName) =>
      (fieldName !== undefined && FILE_FIELDS.has(fieldName)) ||
      contentType === 'application/octet-stream' ||
      fileName !== undefined,
  });

  // Per app and user, not per token: opening the app again for a fresh token does not buy more calls.
  const checkCallRate = createRateLimit({
    redis,
    name: 'api-calls',
    max: config.API_RATE_LIMIT,
    windowSeconds: config.API_RATE_WINDOW_SECONDS,
    what: 'calls',
  });
  const checkCaller = (caller: ApiCaller) => checkCallRate(`app:${caller.appId}:user:${caller.userId}`);
  // Keys are unguessable (256 bits), so failed exchanges need no limit; only usable keys count, per app.
  const checkExchangeRate = createRateLimit({
    redis,
    name: 'token-exchanges',
    max: config.TOKEN_EXCHANGE_LIMIT,
    windowSeconds: config.TOKEN_EXCHANGE_WINDOW_SECONDS,
    what: 'key exchanges for this app',
  });

  const token = async (request: FastifyRequest): Promise<TokenAnswer> => {
    const { key } = request.query as { key?: unknown };
    if (Array.isArray(key)) throw givenMoreThanOnce('key');
    if (typeof key === 'string') {
      const appId = await appAuth.appOfUsableKey(key);
      if (appId !== undefined) await checkExchangeRate(`app:${appId}`);
    }
    const issued = await appAuth.exchangeKey(typeof key === 'string' ? key : undefined);
    return { token: issued.token };
  };
  app.get('/token.php', { schema: tokenRouteSchema, ...documentationOnly }, token);

  const api = async (request: FastifyRequest, reply: FastifyReply) => {
    const queryToken = (request.query as { token?: unknown }).token;
    // With the token in the query, an unauthenticated or rate-limited upload is refused before its body is read.
    if (typeof queryToken === 'string') {
      request.apiCaller = appAuth.cachedCaller(queryToken) ?? (await appAuth.authenticate(queryToken));
      await checkCaller(request.apiCaller);
    }
    const input = request.isMultipart()
      ? await readMultipartInput(request, config.UPLOAD_MAX_BYTES)
      : readFormInput(request);
    if (!request.apiCaller) {
      request.apiCaller = await appAuth.authenticate(asSingle(input.fields.token, 'token'));
      await checkCaller(request.apiCaller);
    }
    const method = registry.resolve(asSingle(input.fields.method, 'method'));
    request.apiMethod = method.name;
    requirePermission(method, request.apiCaller);
    if (method.httpMethod === 'POST' && request.method !== 'POST') {
      reply.header('Allow', 'POST');
      throw appError('post_required', `${method.name} must be called with POST (multipart/form-data).`);
    }
    const params = parseParams(method.params, input.fields, input.files);
    const page = (params.page as number | undefined) ?? 1;
    const output = await method.handler({ ctx: app.platform, caller: request.apiCaller, params, page });
    if (method.kind === 'single') return envelope(SINGLE_VALUE, output);
    const list = output as PageResult<unknown>;
    return envelope(listPaging(list.total, page), list.items);
  };
  const apiSchema = apiRouteSchema(registry, config.UPLOAD_MAX_BYTES);
  app.get('/api.php', { schema: apiSchema, ...documentationOnly }, api);
  app.post('/api.php', { schema: apiPostSchema(apiSchema), ...documentationOnly }, api);
}

function asSingle(value: unknown, name: string): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  throw givenMoreThanOnce(name);
}

const givenMoreThanOnce = (name: string) =>
  appError('invalid_parameter', `Parameter ${name} is given more than once; give it once, as text.`, {
    details: { parameter: name },
  });
