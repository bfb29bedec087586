import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { TokenAnswer } from '@repo/contracts/platform';
import { toPublicError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { after } from '../api/after.ts';
import { BATCH_METHOD, type BatchCall, failedCallEnvelope, readBatchCalls } from '../api/batch.ts';
import { envelope, listPaging, SINGLE_VALUE, serializeAnswer } from '../api/envelope.ts';
import { apiPostSchema, apiRouteSchema, tokenRouteSchema } from '../api/openapi.ts';
import { parseParams } from '../api/params.ts';
import { type ApiInput, FILE_FIELDS, readFormInput, readMultipartInput } from '../api/read-input.ts';
import type { ApiCaller } from '../auth/app-auth-service.ts';
import type { PageResult } from '../db/paging.ts';
import { appError } from '../error-catalogue.ts';
import { createRateLimit } from '../http/rate-limit.ts';
import { createMethodRegistry } from '../methods/index.ts';
import { type ApiMethod, requestedPage, requirePermission } from '../methods/registry.ts';

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
 * Named in lowercase, as Fastify stores and sends them: it lowercases each name it is given on every
 * call, and a name already in lowercase comes back as it is instead of as a new string.
 */
const API_SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
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

  // Each call of a known app and method counts in the developer console's usage, failures with their code.
  app.addHook('onError', (request, _reply, error, done) => {
    request.apiErrorCode = toPublicError(error).code;
    done();
  });
  // One hook for the headers and the usage: every answer (errors included) passes onSend, and each hook a
  // request runs costs (an onRequest hook for the headers alone made Fastify run a hook chain more per call).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(API_SECURITY_HEADERS);
    if (request.apiCaller && request.apiMethod) {
      usage.record(request.apiCaller.appId, request.apiMethod, request.apiErrorCode);
    }
    done(null, payload);
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
    const { key, sig } = request.query as { key?: unknown; sig?: unknown };
    if (Array.isArray(key)) throw givenMoreThanOnce('key');
    if (Array.isArray(sig)) throw givenMoreThanOnce('sig');
    if (typeof key === 'string') {
      const appId = await appAuth.appOfUsableKey(key);
      if (appId !== undefined) await checkExchangeRate(`app:${appId}`);
    }
    const issued = await appAuth.exchangeKey(
      typeof key === 'string' ? key : undefined,
      typeof sig === 'string' ? sig : undefined,
    );
    return { token: issued.token };
  };
  app.get('/token.php', { schema: tokenRouteSchema, ...documentationOnly }, token);

  /** The caller's call counted against the limit of its app and user (throws 429 `rate_limited` over it). */
  const admit = (request: FastifyRequest, caller: ApiCaller): Promise<void> => {
    request.apiCaller = caller;
    return checkCaller(caller);
  };

  /** The method the call names, run with the call's parameters, in its envelope. */
  const answer = (request: FastifyRequest, reply: FastifyReply, input: ApiInput, caller: ApiCaller) => {
    const name = asSingle(input.fields.method, 'method');
    if (name === BATCH_METHOD) return answerBatch(request, input, caller);
    const method = registry.resolve(name);
    request.apiMethod = method.name;
    requirePermission(method, caller);
    if (method.httpMethod === 'POST' && request.method !== 'POST') {
      reply.header('Allow', 'POST');
      throw postRequired(method.name);
    }
    return run(method, input, caller);
  };

  const run = (method: ApiMethod, input: ApiInput, caller: ApiCaller) => {
    const params = parseParams(method.params, input.fields, input.files);
    const page = requestedPage(params.page as number | undefined);
    return after(method.handler({ ctx: app.platform, caller, params, page }), (output) => {
      if (method.kind === 'single') return envelope(SINGLE_VALUE, output);
      const list = output as PageResult<unknown>;
      return envelope(listPaging(list.total, page), list.items);
    });
  };

  /**
   * `method=batch`: each call of `calls` run in turn, as if it came alone: counted in the usage
   * and against the rate limit (the request's own admission is its first call's), checked against
   * the grant, answered in its own envelope. A malformed batch fails as a whole (its usage row is
   * `batch`); one call's fault is that call's envelope.
   */
  const answerBatch = async (request: FastifyRequest, input: ApiInput, caller: ApiCaller) => {
    request.apiMethod = BATCH_METHOD;
    const calls = readBatchCalls(input.fields.calls);
    request.apiMethod = undefined;
    const outputs: unknown[] = [];
    for (const [index, call] of calls.entries()) {
      outputs.push(await batchCall(call, caller, request.method === 'POST', index > 0));
    }
    // Every call's answer on one page, however many: the batch is not paged.
    return envelope({ total: outputs.length, pages: 1, current_page: 1 }, outputs);
  };

  const batchCall = async (call: BatchCall, caller: ApiCaller, posted: boolean, counted: boolean) => {
    let method: ApiMethod | undefined;
    try {
      if (counted) await checkCaller(caller);
      if (call.fault) {
        method = registry.find(call.method);
        throw call.fault;
      }
      method = registry.resolve(call.method);
      requirePermission(method, caller);
      if (Object.values(method.params).some((param) => param.kind === 'file')) {
        throw appError('not_batchable', `${method.name} uploads a file and cannot be called in a batch.`);
      }
      if (method.httpMethod === 'POST' && !posted) throw postRequired(method.name);
      const answered = await run(method, { fields: call.params, files: {} }, caller);
      usage.record(caller.appId, method.name, undefined);
      return answered;
    } catch (error) {
      const failed = failedCallEnvelope(error);
      if (method) usage.record(caller.appId, method.name, failed.output.error.code);
      return failed;
    }
  };

  /**
   * api.php answering a call whose parameters `readInput` reads (the query; for a POST, the body too).
   * Not an async function: a call whose steps wait for nothing (a cached token, the in-memory limit, a
   * GET's query, a record kept in memory) is answered in the turn it arrived in (see after.ts).
   */
  const api = (readInput: InputReader) => (request: FastifyRequest, reply: FastifyReply) => {
    const queryToken = (request.query as { token?: unknown }).token;
    // With the token in the query, an unauthenticated or rate-limited upload is refused before its body is read.
    const admitted =
      typeof queryToken === 'string'
        ? after(appAuth.cachedCaller(queryToken) ?? appAuth.authenticate(queryToken), (caller) =>
            admit(request, caller),
          )
        : undefined;
    return after(admitted, () =>
      after(readInput(request), (input) => {
        const { apiCaller } = request;
        if (apiCaller) return answer(request, reply, input, apiCaller);
        return after(appAuth.authenticate(asSingle(input.fields.token, 'token')), (caller) =>
          after(admit(request, caller), () => answer(request, reply, input, caller)),
        );
      }),
    );
  };
  const apiSchema = apiRouteSchema(registry, config.UPLOAD_MAX_BYTES);
  app.get('/api.php', { schema: apiSchema, ...documentationOnly }, api(readFormInput));
  // Only POST reads a body: the body parsers, and @fastify/multipart's hooks (two asynchronous ones on
  // every request of their scope, a 'close' listener included), stay out of the GET routes' way.
  await app.register(async (posts) => {
    await posts.register(formbody, { bodyLimit: 64 * 1024 });
    await posts.register(multipart, {
      // Two files, so that a second one reaches readMultipartInput and is refused as 400 `unexpected_file`.
      limits: { fileSize: config.UPLOAD_MAX_BYTES, files: 2, fields: 10, fieldSize: 4096, parts: 12 },
      isPartAFile: (fieldName, contentType, fileName) =>
        (fieldName !== undefined && FILE_FIELDS.has(fieldName)) ||
        contentType === 'application/octet-stream' ||
        fileName !== undefined,
    });

    const readPostInput: InputReader = (request) =>
      request.isMultipart() ? readMultipartInput(request, config.UPLOAD_MAX_BYTES) : readFormInput(request);
    posts.post('/api.php', { schema: apiPostSchema(apiSchema), ...documentationOnly }, api(readPostInput));
  });
}

type InputReader = (request: FastifyRequest) => ApiInput | Promise<ApiInput>;

function asSingle(value: unknown, name: string): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  throw givenMoreThanOnce(name);
}

const postRequired = (name: string) =>
  appError('post_required', `${name} must be called with POST (multipart/form-data).`);

const givenMoreThanOnce = (name: string) =>
  appError('invalid_parameter', `Parameter ${name} is given more than once; give it once, as text.`, {
    details: { parameter: name },
  });
