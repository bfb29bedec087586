import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { Envelope, SignupResult } from '@repo/contracts/domain-intel';
import { type AppError, isAppError, toPublicError } from '@repo/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../error-catalogue.ts';
import { ok } from '../http/envelope.ts';

const SignupBody = Type.Object({ email: Type.String({ maxLength: 320 }) });

/** Browsers (which never list application/json) get HTML; JSON clients get the API envelope. */
const wantsJson = (request: FastifyRequest) =>
  (request.headers.accept ?? '').includes('application/json') ||
  (request.headers['content-type'] ?? '').includes('application/json');

/**
 * Self-service sign-up for the Free plan (no card). Outside /v1: the spec keeps /v1 GET-only.
 * Limited per client address so it cannot be used to mint keys in bulk.
 */
export const signupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config, redis, accounts } = app.ctx;
  await app.register(formbody, { bodyLimit: 4096 });
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'signup-rate:' } : {}),
    errorResponseBuilder: (_request, context) =>
      appError('rate_limited', `Too many sign-ups from this address. Try again in ${context.after}.`, {
        headers: { 'Retry-After': String(Math.ceil(context.ttl / 1000)) },
      }),
  });

  app.get(
    '/signup',
    { schema: { summary: 'Sign-up page (HTML form)', tags: ['account'], hide: true } },
    async (request, reply) => {
      if (wantsJson(request)) {
        return { signup: { method: 'POST', path: '/signup', body: { email: 'you@example.com' }, plan: 'free' } };
      }
      return reply.view('signup', { email: '' });
    },
  );

  app.post(
    '/signup',
    {
      config: { rateLimit: { max: config.SIGNUP_RATE_PER_HOUR, timeWindow: '1 hour' } },
      attachValidation: true,
      schema: {
        summary: 'Create a Free account and its API key (shown once)',
        description:
          'Form-encoded or JSON body `{email}`. Answers HTML to browsers and JSON to `Accept: application/json`.',
        tags: ['account'],
        security: [],
        body: SignupBody,
        response: { 201: Envelope(SignupResult) },
      },
    },
    async (request, reply) => {
      const email = (request.body as { email?: unknown } | undefined)?.email;
      try {
        const { account, key } = await accounts.signUp({ email, plan: 'free' });
        const result: SignupResult = {
          account_id: account.account_id,
          email: account.email,
          plan: account.plan,
          key: key.key,
          key_id: key.key_id,
        };
        reply.status(201).header('Cache-Control', 'no-store');
        if (wantsJson(request)) return ok(request, result);
        return reply.view('signup-done', {
          ...result,
          baseUrl: config.PUBLIC_URL ?? `${request.protocol}://${request.host}`,
        });
      } catch (error) {
        if (wantsJson(request) || !isAppError(error)) throw error;
        return renderFormError(reply, error, email);
      }
    },
  );
};

function renderFormError(reply: FastifyReply, error: AppError, email: unknown) {
  const { status, message } = toPublicError(error);
  return reply.status(status).view('signup', { error: message, email: typeof email === 'string' ? email : '' });
}
