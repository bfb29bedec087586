import { isAppError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Visibility } from '../../db/schema.ts';
import { appError } from '../../error-catalogue.ts';
import { VISIBILITIES } from '../../photos/photos-service.ts';
import type { User } from '../../users/users-service.ts';
import { setFlash } from '../flash.ts';
import { personView } from '../people-view.ts';
import { renderPage } from '../render.ts';
import { pageQuery, userParams } from '../route-schemas.ts';
import { receiveImage } from '../uploads.ts';
import { requireViewer } from '../viewer.ts';

const PER_PAGE = 24;

/** Galleries (one's own with the upload form, and other people's as far as they may be seen). */
export async function photoPages(app: FastifyInstance): Promise<void> {
  const ctx = app.platform;

  const renderGallery = async (
    request: FastifyRequest,
    reply: FastifyReply,
    owner: User,
    page: number,
    upload: { error?: string; status: number } = { status: 200 },
  ) => {
    const viewer = requireViewer(request);
    const photos = await ctx.photos.list(owner.id, viewer.user.id, { page, perPage: PER_PAGE });
    const isOwn = owner.id === viewer.user.id;
    return renderPage(
      request,
      reply,
      'photos.eta',
      {
        title: isOwn ? 'Your photos' : `Photos of ${owner.full_name}`,
        owner: await personView(ctx, owner),
        isOwn,
        photos: photos.items.map((photo) => ({
          name: photo.name,
          visibility: photo.visibility,
          thumbnail: photo.files['240px']?.url,
          large: photo.files['1024px']?.url ?? photo.files.original?.url,
        })),
        total: photos.total,
        page,
        pages: Math.max(1, Math.ceil(photos.total / PER_PAGE)),
        hrefFor: (target: number) => (isOwn ? `/photos?page=${target}` : `/u/${owner.user_name}/photos?page=${target}`),
        visibilities: VISIBILITIES,
        uploadError: upload.error,
        maxUploadMb: Math.floor(ctx.photos.limits.maxBytes / (1024 * 1024)),
      },
      upload.status,
    );
  };

  app.get<{ Querystring: { page: number } }>(
    '/photos',
    { schema: { querystring: pageQuery } },
    async (request, reply) => renderGallery(request, reply, requireViewer(request).user, request.query.page),
  );

  app.get<{ Params: { userName: string }; Querystring: { page: number } }>(
    '/u/:userName/photos',
    { schema: { params: userParams, querystring: pageQuery } },
    async (request, reply) => {
      requireViewer(request);
      const owner = await ctx.users.findByUserName(request.params.userName);
      if (!owner) throw appError('user_not_found', `There is no user @${request.params.userName}.`);
      return renderGallery(request, reply, owner, request.query.page);
    },
  );

  app.post('/photos', { preHandler: app.csrfProtection }, async (request, reply) => {
    const viewer = requireViewer(request);
    try {
      const { stream, fields } = await receiveImage(request, 'photo', ctx.photos.limits.maxBytes);
      const visibility = (fields.visibility ?? 'public') as Visibility;
      if (!VISIBILITIES.includes(visibility)) {
        stream.resume();
        throw appError('invalid_visibility', 'Choose who may see the photo.');
      }
      await ctx.photos.addPhoto({ ownerId: viewer.user.id, name: fields.name, data: stream, visibility });
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      return renderGallery(request, reply, viewer.user, 1, { error: error.message, status: error.status });
    }
    setFlash(reply, 'photo_uploaded', app.web.cookies.secure);
    return reply.redirect('/photos', 303);
  });
}
