import type {
  Friend,
  Notification as NotificationRecord,
  Photo as PhotoRecord,
  UploadedPhoto,
  User as UserRecord,
} from '@repo/contracts/platform';
import type { AppContext } from '../context.ts';
import type { Photo, StoredFile } from '../photos/photos-service.ts';
import { DEFAULT_AVATAR_PATHS, DEFAULT_NOTIFICATION_ICON_PATH } from '../routes/icon-routes.ts';
import type { Notification } from '../social/notifications-service.ts';
import { profileUrl } from '../urls.ts';
import type { User } from '../users/users-service.ts';

/**
 * Friend records (the spec's User without `email`) for `users`, with their profile pictures
 * fetched in one query. Every field is present: a user without a picture has the platform's
 * default avatar in the four `photo_*`, and `country_iso` and `gender` are null when not given.
 */
export async function presentFriends(ctx: AppContext, users: User[]): Promise<Friend[]> {
  const pictureIds = users.flatMap((user) => (user.picture_photo_id ? [user.picture_photo_id] : []));
  const pictures = pictureIds.length > 0 ? await ctx.photos.filesOf(pictureIds) : undefined;
  return users.map((user) =>
    user.picture_photo_id ? friendRecord(ctx, user, pictures?.get(user.picture_photo_id)) : withoutPicture(ctx, user),
  );
}

/**
 * The User record of user.getUser: a Friend record plus `email`, filled only when `emailOf`
 * is this user (the token's own user, when the app may see it), null otherwise. A user without a
 * picture, or with a public one whose files are kept (PhotosService.keptPictureFiles), comes
 * without a promise.
 */
export function presentUser(
  ctx: AppContext,
  user: User,
  emailOf: number | undefined,
): UserRecord | Promise<UserRecord> {
  const withEmail = user.id === emailOf;
  const photoId = user.picture_photo_id;
  const files = photoId ? ctx.photos.keptPictureFiles(photoId) : undefined;
  if (photoId && !files) return withPicture(ctx, user, photoId, withEmail);
  return keptRecords(ctx, user, files)?.user(withEmail) ?? userRecord(ctx, user, files, withEmail);
}

async function withPicture(ctx: AppContext, user: User, photoId: number, withEmail: boolean): Promise<UserRecord> {
  const files = await ctx.photos.pictureFiles(photoId);
  return keptRecords(ctx, user, files)?.user(withEmail) ?? userRecord(ctx, user, files, withEmail);
}

function userRecord(
  ctx: AppContext,
  user: User,
  files: Readonly<Record<string, StoredFile>> | undefined,
  withEmail: boolean,
): UserRecord {
  return { ...friendRecord(ctx, user, files), email: withEmail ? user.email : null };
}

function withoutPicture(ctx: AppContext, user: User): Friend {
  return keptRecords(ctx, user, undefined)?.friend ?? friendRecord(ctx, user, undefined);
}

/** The records of one user row and its picture's files, made once each and frozen: many calls share them. */
class KeptRecords {
  readonly friend: Friend;
  readonly #users: [UserRecord | undefined, UserRecord | undefined] = [undefined, undefined];

  constructor(
    readonly ctx: AppContext,
    private readonly row: User,
    readonly files: Readonly<Record<string, StoredFile>> | undefined,
  ) {
    this.friend = Object.freeze(friendRecord(ctx, row, files));
  }

  user(withEmail: boolean): UserRecord {
    const index = withEmail ? 1 : 0;
    this.#users[index] ??= Object.freeze(userRecord(this.ctx, this.row, this.files, withEmail));
    return this.#users[index];
  }
}

/**
 * Records by user row: the rows the token and user caches share are frozen and reused for many
 * calls, and their records depend on nothing else but the public URL and the picture's files
 * (none, or the frozen files PhotosService keeps). The records are frozen too, so api.php writes
 * each one's JSON once (envelope.ts serializeAnswer). Records of a user with a picture were made
 * afresh on every call, with a query for the picture's files: 2.5–5 times the CPU of a user
 * without one (issue 33).
 */
const recordsByRow = new WeakMap<User, KeptRecords>();

/** The kept records of a frozen row and frozen files (another row or files may change: none for them). */
function keptRecords(
  ctx: AppContext,
  user: User,
  files: Readonly<Record<string, StoredFile>> | undefined,
): KeptRecords | undefined {
  if (!Object.isFrozen(user) || (files !== undefined && !Object.isFrozen(files))) return undefined;
  let kept = recordsByRow.get(user);
  if (kept?.ctx.config.PUBLIC_URL !== ctx.config.PUBLIC_URL || kept.files !== files) {
    kept = new KeptRecords(ctx, user, files);
    recordsByRow.set(user, kept);
  }
  return kept;
}

/** A user's Friend record, with the files of their picture (none: the default avatar). */
function friendRecord(ctx: AppContext, user: User, files: Readonly<Record<string, StoredFile>> | undefined): Friend {
  const picture = (field: keyof typeof DEFAULT_AVATAR_PATHS, size: string) =>
    files?.[size]?.url ?? `${ctx.config.PUBLIC_URL}${DEFAULT_AVATAR_PATHS[field]}`;
  return {
    user_id: user.id,
    user_name: user.user_name,
    full_name: user.full_name,
    joined: Math.floor(user.joined / 1000),
    country_iso: user.country_iso ?? null,
    gender: user.gender ?? null,
    photo_50px: picture('photo_50px', '50px'),
    photo_50px_square: picture('photo_50px_square', '50px_square'),
    photo_120px: picture('photo_120px', '120px'),
    photo_original: picture('photo_original', 'original'),
    profile_url: profileUrl(ctx.config.PUBLIC_URL, user.user_name),
  };
}

export function presentNotification(ctx: AppContext, notification: Notification): NotificationRecord {
  return {
    notification_id: notification.id,
    link: absolute(ctx, notification.link),
    message: notification.message,
    icon: absolute(ctx, notification.icon ?? DEFAULT_NOTIFICATION_ICON_PATH),
  };
}

/** The Photo record of photo.getPhotos. */
export function presentPhoto(photo: Photo): PhotoRecord {
  return {
    photo_id: photo.id,
    name: photo.name,
    photo_100px: urlOf(photo.files, '100px'),
    photo_240px: urlOf(photo.files, '240px'),
    photo_original: urlOf(photo.files, 'original'),
  };
}

/** The output of photo.addPhoto: one URL per size. */
export function presentUploadedPhoto(photo: Photo): UploadedPhoto {
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
