import { type AppError, isAppError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../../error-catalogue.ts';
import { MAX_MESSAGE_LENGTH } from '../../social/mail-service.ts';
import type { User } from '../../users/users-service.ts';
import { setFlash } from '../flash.ts';
import { type FieldErrors, textFields } from '../forms.ts';
import { notify } from '../notify.ts';
import { peopleViews, personView } from '../people-view.ts';
import { renderPage } from '../render.ts';
import { pageQuery, userParams } from '../route-schemas.ts';
import { requireViewer, type Viewer } from '../viewer.ts';

const PER_PAGE = 10;

/** Refusals of the mail service that belong next to the message field. */
const MESSAGE_ERRORS = new Set(['empty_message', 'message_too_long', 'cannot_mail_self']);

/** The inbox: conversations, one conversation with its write form, and writing to anyone by user name. */
export async function inboxPages(app: FastifyInstance): Promise<void> {
  const ctx = app.platform;

  const renderInbox = async (
    request: FastifyRequest,
    reply: FastifyReply,
    viewer: Viewer,
    page: number,
    form: { values: Record<string, string>; errors: FieldErrors; status: number },
  ) => {
    const conversations = await ctx.mail.listConversations(viewer.user.id, { page, perPage: PER_PAGE });
    const people = await peopleViews(
      ctx,
      conversations.items.map((item) => item.otherUser),
    );
    return renderPage(
      request,
      reply,
      'inbox.eta',
      {
        title: 'Inbox',
        conversations: conversations.items.map((item, index) => ({
          person: people[index],
          unseen: item.unseen,
          lastMessageAt: new Date(item.lastMessageAt).toISOString().slice(0, 16).replace('T', ' '),
        })),
        page,
        pages: Math.max(1, Math.ceil(conversations.total / PER_PAGE)),
        hrefFor: (target: number) => `/mail?page=${target}`,
        values: form.values,
        errors: form.errors,
        maxLength: MAX_MESSAGE_LENGTH,
      },
      form.status,
    );
  };

  const renderConversation = async (
    request: FastifyRequest,
    reply: FastifyReply,
    viewer: Viewer,
    other: User,
    form: { values: Record<string, string>; errors: FieldErrors; status: number },
  ) => {
    const messages = await ctx.mail.listMessages(viewer.user.id, other.id, { page: 1, perPage: 50 });
    // Reading the conversation is what makes its messages seen.
    await ctx.mail.markSeen(viewer.user.id, other.id);
    return renderPage(
      request,
      reply,
      'conversation.eta',
      {
        title: `Messages with ${other.full_name}`,
        other: await personView(ctx, other),
        messages: messages.items.reverse().map((message) => ({
          mine: message.sender_id === viewer.user.id,
          body: message.body,
          sentAt: new Date(message.sent_at).toISOString().slice(0, 16).replace('T', ' '),
        })),
        olderCount: Math.max(0, messages.total - messages.items.length),
        values: form.values,
        errors: form.errors,
        maxLength: MAX_MESSAGE_LENGTH,
      },
      form.status,
    );
  };

  const findRecipient = async (userName: string) => {
    const user = userName.trim() ? await ctx.users.findByUserName(userName.trim().replace(/^@/, '')) : undefined;
    return user;
  };

  app.get<{ Querystring: { page: number } }>(
    '/mail',
    { schema: { querystring: pageQuery } },
    async (request, reply) => {
      const viewer = requireViewer(request);
      return renderInbox(request, reply, viewer, request.query.page, { values: {}, errors: {}, status: 200 });
    },
  );

  app.post('/mail', { preHandler: app.csrfProtection }, async (request, reply) => {
    const viewer = requireViewer(request);
    const values = textFields(request.body, ['to', 'body']);
    const recipient = await findRecipient(values.to);
    if (!recipient) {
      const errors = { to: values.to.trim() ? `There is no user @${values.to.trim()}.` : 'Enter a user name.' };
      return renderInbox(request, reply, viewer, 1, { values, errors, status: values.to.trim() ? 404 : 400 });
    }
    const refused = await send(viewer.user, recipient, values.body);
    if (refused)
      return renderInbox(request, reply, viewer, 1, { values, errors: { body: refused.message }, status: 400 });
    setFlash(reply, 'message_sent', app.web.cookies.secure);
    return reply.redirect(`/mail/${recipient.user_name}`, 303);
  });

  app.get<{ Params: { userName: string } }>(
    '/mail/:userName',
    { schema: { params: userParams } },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const other = await findRecipient(request.params.userName);
      if (!other) throw appError('user_not_found', `There is no user @${request.params.userName}.`);
      return renderConversation(request, reply, viewer, other, { values: {}, errors: {}, status: 200 });
    },
  );

  app.post<{ Params: { userName: string } }>(
    '/mail/:userName',
    { schema: { params: userParams }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const other = await findRecipient(request.params.userName);
      if (!other) throw appError('user_not_found', `There is no user @${request.params.userName}.`);
      const values = textFields(request.body, ['body']);
      const refused = await send(viewer.user, other, values.body);
      if (refused) {
        return renderConversation(request, reply, viewer, other, {
          values,
          errors: { body: refused.message },
          status: 400,
        });
      }
      setFlash(reply, 'message_sent', app.web.cookies.secure);
      return reply.redirect(`/mail/${other.user_name}`, 303);
    },
  );

  /** Sends and notifies; a refusal about the message itself is returned for the form, anything else thrown. */
  async function send(from: User, to: User, body: string): Promise<AppError | undefined> {
    try {
      await ctx.mail.send(from.id, to.id, body);
    } catch (error) {
      if (isAppError(error) && MESSAGE_ERRORS.has(error.code)) return error;
      throw error;
    }
    await notify.mail(ctx, from, to.id);
    return undefined;
  }
}
