import path from 'node:path';
import { Photo, UploadedPhoto } from '@repo/contracts/platform';
import { fileParam, stringParam } from '../api/params.ts';
import { VISIBILITIES } from '../photos/photos-service.ts';
import { subjectOf, userIdParam } from './access.ts';
import { presentPhoto, presentUploadedPhoto } from './present.ts';
import { listMethod, singleMethod } from './registry.ts';

export const photoMethods = [
  singleMethod({
    name: 'photo.addPhoto',
    permission: 'photos_upload',
    httpMethod: 'POST',
    summary:
      "Uploads a photo to the token's user's album (multipart/form-data). JPEG, PNG, WebP, GIF or AVIF, decided by " +
      'content; stored as the original and in 75, 100, 150, 240, 500 and 1024 px (longest side), rotated upright, ' +
      'metadata removed.',
    output: UploadedPhoto,
    params: {
      photo: fileParam('The image file.'),
      photo_name: stringParam(false, "The photo's name; defaults to the uploaded file's base name."),
      visibility: stringParam(false, 'Who may see it: public (default), friends or private.', { values: VISIBILITIES }),
    },
    async handler({ ctx, caller, params }) {
      const fallbackName = path.parse(params.photo.filename).name;
      const photo = await ctx.photos.addPhoto({
        ownerId: caller.userId,
        name: params.photo_name ?? fallbackName,
        data: params.photo.data,
        visibility: params.visibility as (typeof VISIBILITIES)[number] | undefined,
      });
      return presentUploadedPhoto(photo);
    },
  }),
  listMethod({
    name: 'photo.getPhotos',
    permission: 'photos_read',
    httpMethod: 'GET',
    summary:
      "A user's album photos that you may see (theirs: all; a friend's: public and friends-only; others: public).",
    item: Photo,
    params: { user_id: userIdParam },
    async handler({ ctx, caller, params, page }) {
      const subject = await subjectOf(ctx, caller, params.user_id);
      const photos = await ctx.photos.list(subject.id, caller.userId, { page, perPage: 10 });
      return { items: photos.items.map(presentPhoto), total: photos.total };
    },
  }),
];
