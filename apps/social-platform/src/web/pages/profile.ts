import { isAppError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../../error-catalogue.ts';
import type { User } from '../../users/users-service.ts';
import { setFlash } from '../flash.ts';
import { peopleViews, personView, relationshipOf } from '../people-view.ts';
import { renderPage } from '../render.ts';
import { userParams } from '../route-schemas.ts';
import { receiveImage } from '../uploads.ts';
import { requireViewer } from '../viewer.ts';

/** Profiles: picture, facts, friend buttons, latest photos and friends; one's own adds the picture upload. */
export async function profilePages(app: FastifyInstance): Promise<void> {
  const ctx = app.platform;

  const renderProfile = async (
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    upload: { error?: string; status: number } = { status: 200 },
  ) => {
    const viewer = requireViewer(request);
    const friendsVisible = (await ctx.photos.visibleTo(user.id, viewer.user.id)).includes(user.friends_visibility);
    const [relationship, photos, friends] = await Promise.all([
      relationshipOf(ctx, viewer.user.id, user.id),
      ctx.photos.list(user.id, viewer.user.id, { page: 1, perPage: 6 }),
      friendsVisible ? ctx.friends.list(user.id, { page: 1, perPage: 6 }) : undefined,
    ]);
    return renderPage(
      request,
      reply,
      'profile.eta',
      {
        title: user.full_name,
        person: await personView(ctx, user),
        email: user.id === viewer.user.id ? user.email : undefined,
        relationship,
        back: `/u/${user.user_name}`,
        photos: photos.items.map((photo) => ({ name: photo.name, thumbnail: photo.files['240px']?.url })),
        photosTotal: photos.total,
        friends: friends ? await peopleViews(ctx, friends.items) : undefined,
        friendsTotal: friends?.total ?? 0,
        uploadError: upload.error,
        maxUploadMb: Math.floor(ctx.photos.limits.maxBytes / (1024 * 1024)),
      },
      upload.status,
    );
  };

  app.get<{ Params: { userName: string } }>(
    '/u/:userName',
    { schema: { params: userParams } },
    async (request, reply) => {
      requireViewer(request);
      const user = await ctx.users.findByUserName(request.params.userName);
      if (!user) throw appError('user_not_found', `There is no user @${request.params.userName}.`);
      return renderProfile(request, reply, user);
    },
  );

  app.post('/profile/picture', { preHandler: app.csrfProtection }, async (request, reply) => {
    const viewer = requireViewer(request);
    try {
      const { stream } = await receiveImage(request, 'picture', ctx.photos.limits.maxBytes);
      await ctx.photos.setProfilePicture(viewer.user.id, stream);
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      return renderProfile(request, reply, viewer.user, { error: error.message, status: error.status });
    }
    setFlash(reply, 'picture_updated', app.web.cookies.secure);
    return reply.redirect(`/u/${viewer.user.user_name}`, 303);
  });
}
