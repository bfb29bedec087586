import type { AppContext } from '../context.ts';
import type { Photo, StoredFile } from '../photos/photos-service.ts';
import { DEFAULT_AVATAR_PATHS, DEFAULT_NOTIFICATION_ICON_PATH } from '../routes/icon-routes.ts';
import type { Notification } from '../social/notifications-service.ts';
import { profileUrl } from '../urls.ts';
import type { User } from '../users/users-service.ts';

/**
 * The User record of the spec, with every field always present: a user without a picture
 * has the platform's default avatar in the four `photo_*`, and `country_iso` and `gender`
 * are null when not given. `email` is only in user.getUser (null unless it is the token's
 * own user and the app was granted `email`), never in friend.getFriends.
 */
export interface ApiUser {
  user_id: number;
  user_name: string;
  full_name: string;
  joined: number;
  country_iso: string | null;
  gender: string | null;
  email?: string | null;
  photo_50px: string;
  photo_50px_square: string;
  photo_120px: string;
  photo_original: string;
  profile_url: string;
}

const PICTURE_FIELDS = [
  ['photo_50px', '50px'],
  ['photo_50px_square', '50px_square'],
  ['photo_120px', '120px'],
  ['photo_original', 'original'],
] as const;

/**
 * User records for `users`, with their profile pictures fetched in one query. With
 * `email`, the record carries the field, filled only for `email.of` (the token's own user,
 * when the app may see it).
 */
export async function presentUsers(
  ctx: AppContext,
  users: User[],
  email?: { of: number | undefined },
): Promise<ApiUser[]> {
  const pictureIds = users.flatMap((user) => (user.picture_photo_id ? [user.picture_photo_id] : []));
  const pictures = await ctx.photos.filesOf(pictureIds);
  return users.map((user) => {
    const files = user.picture_photo_id ? pictures.get(user.picture_photo_id) : undefined;
    const photo = (field: (typeof PICTURE_FIELDS)[number][0], size: string) =>
      files?.[size]?.url ?? `${ctx.config.PUBLIC_URL}${DEFAULT_AVATAR_PATHS[field]}`;
    return {
      user_id: user.id,
      user_name: user.user_name,
      full_name: user.full_name,
      joined: Math.floor(user.joined / 1000),
      country_iso: user.country_iso ?? null,
      gender: user.gender ?? null,
      ...(email ? { email: user.id === email.of ? user.email : null } : {}),
      ...Object.fromEntries(PICTURE_FIELDS.map(([field, size]) => [field, photo(field, size)])),
      profile_url: profileUrl(ctx.config.PUBLIC_URL, user.user_name),
    } as ApiUser;
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
