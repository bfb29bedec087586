import { isAppError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { newUserSchema } from '../../users/users-service.ts';
import { setFlash } from '../flash.ts';
import { type FieldErrors, fieldErrors, textFields } from '../forms.ts';
import { localRedirectPath } from '../local-redirect.ts';
import { renderPage } from '../render.ts';
import { clearSessionCookie, setSessionCookie } from '../viewer.ts';

/** Password guessing and mass sign-ups slow down to this pace per client address. */
const ATTEMPT_LIMIT = { rateLimit: { max: 20, timeWindow: '10 minutes' } };

const SIGNUP_FIELDS = ['fullName', 'userName', 'email', 'password', 'countryIso', 'gender'] as const;
const LOGIN_FIELDS = ['login', 'password', 'next'] as const;

/** Which form field each refusal of the account service is about. */
const SIGNUP_CONFLICTS: Record<string, string> = { user_name_taken: 'userName', email_taken: 'email' };

/** Sign-up, log-in and log-out. Passwords are never echoed back into a form. */
export async function authPages(app: FastifyInstance): Promise<void> {
  const { users } = app.platform;
  const { webSessions, cookies } = app.web;

  const startSession = async (reply: FastifyReply, userId: number) => {
    const { cookieValue } = await webSessions.create(userId);
    setSessionCookie(reply, cookies, cookieValue);
  };

  const renderSignup = (
    request: FastifyRequest,
    reply: FastifyReply,
    values: Partial<Record<string, string>>,
    errors: FieldErrors,
    status: number,
  ) =>
    renderPage(request, reply, 'signup.eta', { title: 'Sign up', values: { ...values, password: '' }, errors }, status);

  app.get('/signup', async (request, reply) => {
    if (request.viewer) return reply.redirect('/', 303);
    return renderSignup(request, reply, {}, {}, 200);
  });

  app.post('/signup', { preHandler: app.csrfProtection, config: ATTEMPT_LIMIT }, async (request, reply) => {
    const form = textFields(request.body, SIGNUP_FIELDS);
    const input = {
      ...form,
      // Optional fields left empty are absent, not invalid.
      countryIso: form.countryIso.trim() || undefined,
      gender: form.gender.trim() || undefined,
    };
    const parsed = newUserSchema.safeParse(input);
    if (!parsed.success) return renderSignup(request, reply, form, fieldErrors(parsed.error), 400);
    try {
      const user = await users.create(input);
      if (request.viewer) await webSessions.destroy(request.viewer.session.idHash);
      await startSession(reply, user.id);
    } catch (error) {
      const field = isAppError(error) ? SIGNUP_CONFLICTS[error.code] : undefined;
      if (!field || !isAppError(error)) throw error;
      return renderSignup(request, reply, form, { [field]: error.message }, 409);
    }
    setFlash(reply, 'welcome', cookies.secure);
    return reply.redirect('/', 303);
  });

  app.get('/login', async (request, reply) => {
    const next = localRedirectPath((request.query as { next?: unknown }).next, app.web.publicOrigin);
    if (request.viewer) return reply.redirect(next, 303);
    return renderPage(request, reply, 'login.eta', { title: 'Log in', values: { login: '', next }, errors: {} });
  });

  app.post('/login', { preHandler: app.csrfProtection, config: ATTEMPT_LIMIT }, async (request, reply) => {
    const form = textFields(request.body, LOGIN_FIELDS);
    const next = localRedirectPath(form.next, app.web.publicOrigin);
    const values = { login: form.login, next };
    const errors: FieldErrors = {};
    if (form.login.trim() === '') errors.login = 'Enter your user name or e-mail.';
    if (form.password === '') errors.password = 'Enter your password.';
    if (Object.keys(errors).length > 0) {
      return renderPage(request, reply, 'login.eta', { title: 'Log in', values, errors }, 400);
    }
    const user = await users.verifyPassword(form.login, form.password);
    if (!user) {
      return renderPage(
        request,
        reply,
        'login.eta',
        {
          title: 'Log in',
          values,
          errors: { _form: 'That user name or e-mail and password do not match an account.' },
        },
        401,
      );
    }
    // A new session id at every login: a session id planted before it is worth nothing.
    if (request.viewer) await webSessions.destroy(request.viewer.session.idHash);
    await startSession(reply, user.id);
    setFlash(reply, 'logged_in', cookies.secure);
    return reply.redirect(next, 303);
  });

  app.post('/logout', { preHandler: app.csrfProtection }, async (request, reply) => {
    if (request.viewer) await webSessions.destroy(request.viewer.session.idHash);
    clearSessionCookie(reply, cookies);
    setFlash(reply, 'logged_out', cookies.secure);
    return reply.redirect('/login', 303);
  });
}
