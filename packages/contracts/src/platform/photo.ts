import { type Static, Type } from 'typebox';

const PHOTO_URL_NOTE =
  'A public photo has a permanent URL; a friends-only or private one a signed URL that expires (MEDIA_URL_TTL_SECONDS)';
const url = (size: string) => Type.String({ format: 'uri', description: `${size}. ${PHOTO_URL_NOTE}` });

/** An element of photo.getPhotos (an album photo). */
export const Photo = Type.Object(
  {
    photo_id: Type.Integer({ minimum: 1 }),
    name: Type.String({ description: 'Its title' }),
    photo_100px: url('100 px on the longest side'),
    photo_240px: url('240 px on the longest side'),
    photo_original: url('As uploaded, rotated upright, metadata removed'),
  },
  { $id: 'Photo', description: 'An album photo the caller may see' },
);
export type Photo = Static<typeof Photo>;

/** photo.addPhoto's answer: the new photo's URL in every stored size. */
export const UploadedPhoto = Type.Object(
  {
    photo_id: Type.Integer({ minimum: 1 }),
    original: url('As uploaded'),
    '75px': url('75 px'),
    '100px': url('100 px'),
    '150px': url('150 px'),
    '240px': url('240 px'),
    '500px': url('500 px'),
    '1024px': url('1024 px'),
  },
  { $id: 'UploadedPhoto', description: 'The URLs of a new photo by size' },
);
export type UploadedPhoto = Static<typeof UploadedPhoto>;

/** The seven sizes of UploadedPhoto, in the spec's order. */
export const UPLOADED_PHOTO_SIZES = ['original', '75px', '100px', '150px', '240px', '500px', '1024px'] as const;
