import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { Envelope, SignupConfirmation, SignupPending, SignupResult } from '@repo/contracts/domain-intel';
import { isAppError, toPublicError } from '@repo/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountSummary, IssuedKey } from '../accounts/accounts-service.ts';
import { appError } from '../error-catalogue.ts';
import { ok } from '../http/envelope.ts';
import { csrfUnlessJson, formPageError, isJsonBody, registerFormProtection } from '../http/form-protection.ts';
import { publicUrlOf } from '../http/public-url.ts';
import { errorResponses } from '../http/schemas.ts';
import { rateLimitHeaders } from '../limits/counted-limit.ts';
import { CONFIRMATION_HOURS } from '../signup/pending-signups.ts';

const SignupBody = Type.Object({ email: Type.String({ maxLength: 320 }) });
/** The token of the confirmation link (a missing one reads as a used link). */
const ConfirmQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 100 })) });
const CSRF_COOKIE = 'di_signup_csrf';

/**
 * A body the schema refused is answered with the catalogue code the service answers the same
 * mistake with (signup-service.ts), so a client sees one code per mistake, before or after the
 * schema: no e-mail is invalid_email, no token is signup_link_invalid.
 */
const linkInvalid = () =>
  appError(
    'signup_link_invalid',
    'This confirmation link has expired or was already used. Sign up again to get a new one.',
  );

/** The address a refused form is shown again with: what was typed, if it was text. */
const typedEmailOf = (body: unknown): string =>
  typeof body === 'object' && body !== null && 'email' in body && typeof body.email === 'string' ? body.email : '';

/** Browsers (which never list application/json) get HTML; JSON clients get the API envelope. */
const wantsJson = (request: FastifyRequest) =>
  (request.headers.accept ?? '').includes('application/json') || isJsonBody(request);

/** The page a failed form shows again, with the error: the sign-up form, or the confirmation page. */
const formViewOf = (request: FastifyRequest) =>
  request.url.startsWith('/signup/confirm') ? 'signup-confirm' : 'signup';

/**
 * Self-service sign-up for the Free plan (no card), outside /v1 (the spec keeps /v1 GET-only).
 * With account mail it confirms the address: POST /signup mails a link (202), the link's page
 * creates the account and shows its key once (POST /signup/confirm, 201). Without mail the key
 * is shown at once (201). The forms carry a CSRF token; JSON bodies need none.
 */
export const signupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config, signups } = app.ctx;
  await registerFormProtection(app, { path: '/signup', csrfCookie: CSRF_COOKIE });
  // Before validation: a request that is not from our own form is refused as such, whatever its body.
  const csrf = { preValidation: csrfUnlessJson(app) };

  // Errors of these pages: JSON clients get the envelope (the service's handler); a person gets
  // the form again with the message, at the error's status.
  app.setErrorHandler((thrown, request, reply) => {
    const error = formPageError(thrown);
    if (wantsJson(request) || !isAppError(error)) throw error;
    const publicError = toPublicError(error);
    request.log.info({ code: publicError.code, status: publicError.status }, 'sign-up refused');
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    return noStore(reply.status(publicError.status)).view(formViewOf(request), {
      error: publicError.message,
      code: publicError.code,
      email: typedEmailOf(request.body),
      csrfToken: reply.generateCsrf(),
    });
  });

  app.get(
    '/signup',
    { schema: { summary: 'Sign-up page (HTML form)', tags: ['account'], hide: true } },
    async (request, reply) => {
      if (wantsJson(request)) {
        return {
          signup: {
            method: 'POST',
            path: '/signup',
            body: { email: 'you@example.com' },
            plan: 'free',
            // by_mail: 202 and a link by mail (POST /signup/confirm creates the account); none: 201 with the key.
            confirmation: signups.confirms ? 'by_mail' : 'none',
          },
        };
      }
      return noStore(reply).view('signup', {
        email: '',
        confirms: signups.confirms,
        csrfToken: reply.generateCsrf(),
      });
    },
  );

  app.post(
    '/signup',
    {
      ...csrf,
      schemaErrorFormatter: () => appError('invalid_email', 'An e-mail address of at most 320 characters is required.'),
      schema: {
        summary: 'Sign up for the Free plan',
        description:
          "Form-encoded (with the page's CSRF token) or JSON body `{email}`; answers HTML to browsers and JSON to " +
          '`Accept: application/json`. With account mail configured (SMTP, or the embedded outbox) it answers 202: a ' +
          `confirmation link valid ${CONFIRMATION_HOURS} h went to the address (the same answer if the address has an ` +
          'account: its owner is told by mail); the link creates the account and shows the key once. Without mail it ' +
          'answers 201 with the account and its key, shown once. Only sign-ups that go through count against the ' +
          'per-address limit (X-RateLimit-* headers).',
        tags: ['account'],
        security: [],
        body: SignupBody,
        response: {
          201: Envelope(SignupResult),
          202: Envelope(SignupPending),
          ...errorResponses(400, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const started = await signups.start({ email: request.body.email, client: request.ip });
      reply.headers(rateLimitHeaders(started.limit));
      noStore(reply);
      if (started.kind === 'created') return created(request, reply, started.account, started.key);
      reply.status(202);
      const pending: SignupPending = {
        email: started.email,
        status: 'confirmation_sent',
        expires_at: new Date(started.expiresAt).toISOString(),
      };
      if (wantsJson(request)) return ok(request, pending);
      return reply.view('signup-sent', { ...pending, hours: CONFIRMATION_HOURS, outbox: signups.mailsToOutbox });
    },
  );

  // The link in the mail opens a page with one button: mail scanners and link previews fetch
  // links, and must neither use the link up nor see the key.
  app.get(
    '/signup/confirm',
    { schemaErrorFormatter: linkInvalid, schema: { hide: true, querystring: ConfirmQuery } },
    async (request, reply) => {
      const { token } = request.query;
      const email = await signups.pendingEmail(token);
      return noStore(reply).view('signup-confirm', { token, email, csrfToken: reply.generateCsrf() });
    },
  );

  app.post(
    '/signup/confirm',
    {
      ...csrf,
      schemaErrorFormatter: linkInvalid,
      schema: {
        summary: 'Confirm a sign-up: create the account and show its key once',
        description:
          'The token of the link in the confirmation mail, form-encoded (the page the link opens sends it, with its ' +
          'CSRF token) or as JSON. Creates the Free account and answers its key, shown this once.',
        tags: ['account'],
        security: [],
        body: SignupConfirmation,
        response: { 201: Envelope(SignupResult), ...errorResponses(400, 403, 409) },
      },
    },
    async (request, reply) => {
      const { account, key } = await signups.confirm(request.body.token);
      return created(request, noStore(reply), account, key);
    },
  );

  /** 201 with the new account and its key: the envelope for JSON, the key page for people. */
  function created(request: FastifyRequest, reply: FastifyReply, account: AccountSummary, key: IssuedKey) {
    const result: SignupResult = {
      account_id: account.account_id,
      email: account.email,
      plan: account.plan,
      key: key.key,
      key_id: key.key_id,
    };
    reply.status(201);
    if (wantsJson(request)) return ok(request, result);
    return reply.view('signup-done', { ...result, baseUrl: publicUrlOf(config) });
  }
};

/** Pages with keys or tokens are never cached by a browser or proxy. */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store');
}
