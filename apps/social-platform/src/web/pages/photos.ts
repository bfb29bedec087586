import { isAppError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Visibility } from '../../db/schema.ts';
import { appError } from '../../error-catalogue.ts';
import { VISIBILITIES } from '../../photos/photos-service.ts';
import type { User } from '../../users/users-service.ts';
import { setFlash } from '../flash.ts';
import { textFields } from '../forms.ts';
import { personView } from '../people-view.ts';
import { renderPage } from '../render.ts';
import { pageQuery, userParams } from '../route-schemas.ts';
import { receiveImage } from '../uploads.ts';
import { requireViewer } from '../viewer.ts';

const PER_PAGE = 24;

const photoParams = {
  type: 'object',
  required: ['photoId'],
  properties: { photoId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;

/** The choices of "who can see it", in the pages' words. */
export const VISIBILITY_LABELS: Record<Visibility, string> = {
  public: 'Everyone',
  friends: 'Friends',
  private: 'Only me',
};

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
          id: photo.id,
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
        visibilityLabels: VISIBILITY_LABELS,
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

/** One's own photo: shown large, who may see it changed, or deleted. Other people's photos have no such page. */
export async function ownPhotoPages(app: FastifyInstance): Promise<void> {
  const ctx = app.platform;

  /** The viewer's own album photo, or 404 (someone else's photo is as unknown as a missing one). */
  const ownPhoto = async (photoId: number, ownerId: number) => {
    const photo = await ctx.photos.findById(photoId);
    if (!photo || photo.owner_id !== ownerId || photo.kind !== 'photo') {
      throw appError('photo_not_found', 'There is no such photo among yours.');
    }
    return photo;
  };

  app.get<{ Params: { photoId: number } }>(
    '/photos/:photoId',
    { schema: { params: photoParams } },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const photo = await ownPhoto(request.params.photoId, viewer.user.id);
      return renderPage(request, reply, 'photo.eta', {
        title: photo.name,
        photo: {
          id: photo.id,
          name: photo.name,
          visibility: photo.visibility,
          large: photo.files['1024px']?.url ?? photo.files.original?.url,
          original: photo.files.original?.url,
          width: photo.files['1024px']?.width,
          height: photo.files['1024px']?.height,
        },
        visibilities: VISIBILITIES,
        visibilityLabels: VISIBILITY_LABELS,
      });
    },
  );

  app.post<{ Params: { photoId: number } }>(
    '/photos/:photoId/visibility',
    { schema: { params: photoParams }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const photo = await ownPhoto(request.params.photoId, viewer.user.id);
      const { visibility } = textFields(request.body, ['visibility'] as const);
      if (!VISIBILITIES.includes(visibility as Visibility)) {
        throw appError('invalid_visibility', 'Choose who may see the photo.');
      }
      await ctx.photos.setVisibility(viewer.user.id, photo.id, visibility as Visibility);
      setFlash(reply, 'photo_visibility_saved', app.web.cookies.secure);
      return reply.redirect(`/photos/${photo.id}`, 303);
    },
  );

  app.post<{ Params: { photoId: number } }>(
    '/photos/:photoId/delete',
    { schema: { params: photoParams }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const photo = await ownPhoto(request.params.photoId, viewer.user.id);
      await ctx.photos.delete(viewer.user.id, photo.id);
      setFlash(reply, 'photo_deleted', app.web.cookies.secure);
      return reply.redirect('/photos', 303);
    },
  );
}
