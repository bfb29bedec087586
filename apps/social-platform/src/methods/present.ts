import type { AppContext } from '../context.ts';
import type { Photo, StoredFile } from '../photos/photos-service.ts';
import { DEFAULT_NOTIFICATION_ICON_PATH } from '../routes/icon-routes.ts';
import type { Notification } from '../social/notifications-service.ts';
import { profileUrl } from '../urls.ts';
import type { User } from '../users/users-service.ts';

/** The User record of the spec; fields a user does not have are left out. */
export interface ApiUser {
  user_id: number;
  user_name: string;
  full_name: string;
  joined: number;
  country_iso?: string;
  gender?: string;
  email?: string;
  photo_50px?: string;
  photo_50px_square?: string;
  photo_120px?: string;
  photo_original?: string;
  profile_url: string;
}

const PICTURE_FIELDS = [
  ['photo_50px', '50px'],
  ['photo_50px_square', '50px_square'],
  ['photo_120px', '120px'],
  ['photo_original', 'original'],
] as const;

/**
 * User records for `users`, with their profile pictures fetched in one query.
 * `emailOf` is the one user whose e-mail may be shown (the token's own user).
 */
export async function presentUsers(ctx: AppContext, users: User[], emailOf: number): Promise<ApiUser[]> {
  const pictureIds = users.flatMap((user) => (user.picture_photo_id ? [user.picture_photo_id] : []));
  const pictures = await ctx.photos.filesOf(pictureIds);
  return users.map((user) => {
    const record: ApiUser = {
      user_id: user.id,
      user_name: user.user_name,
      full_name: user.full_name,
      joined: Math.floor(user.joined / 1000),
      profile_url: profileUrl(ctx.config.PUBLIC_URL, user.user_name),
    };
    if (user.country_iso) record.country_iso = user.country_iso;
    if (user.gender) record.gender = user.gender;
    if (user.id === emailOf) record.email = user.email;
    const files = user.picture_photo_id ? pictures.get(user.picture_photo_id) : undefined;
    if (files) {
      for (const [field, size] of PICTURE_FIELDS) {
        const file = files[size];
        if (file) record[field] = file.url;
      }
    }
    return record;
  });
}

export function presentNotification(ctx: AppContext, notification: Notification) {
  return {
    notification_id: notification.id,
    link: absolute(ctx, notification.link),
    message: notification.message,
    icon: absolute(ctx, notification.icon ?? DEFAULT_NOTIFICATION_ICON_PATH),
  };
}

/** The Photo record of photo.getPhotos. */
export function presentPhoto(photo: Photo) {
  return {
    photo_id: photo.id,
    name: photo.name,
    photo_100px: urlOf(photo.files, '100px'),
    photo_240px: urlOf(photo.files, '240px'),
    photo_original: urlOf(photo.files, 'original'),
  };
}

/** The output of photo.addPhoto: one URL per size. */
export function presentUploadedPhoto(photo: Photo) {
  return {
    photo_id: photo.id,
    original: urlOf(photo.files, 'original'),
    '75px': urlOf(photo.files, '75px'),
    '100px': urlOf(photo.files, '100px'),
    '150px': urlOf(photo.files, '150px'),
    '240px': urlOf(photo.files, '240px'),
    '500px': urlOf(photo.files, '500px'),
    '1024px': urlOf(photo.files, '1024px'),
  };
}

function urlOf(files: Record<string, StoredFile>, size: string): string {
  const file = files[size];
  if (!file) throw new Error(`Photo is missing its ${size} file`);
  return file.url;
}

/** Stored links may be platform paths (`/mail`); outputs are always absolute. */
function absolute(ctx: AppContext, link: string): string {
  return /^https?:\/\//.test(link) ? link : `${ctx.config.PUBLIC_URL}${link}`;
}
