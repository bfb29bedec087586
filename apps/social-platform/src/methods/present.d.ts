import type { AppContext } from '../context.ts';
import type { Photo } from '../photos/photos-service.ts';
import type { Notification } from '../social/notifications-service.ts';
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
/**
 * User records for `users`, with their profile pictures fetched in one query.
 * `emailOf` is the one user whose e-mail may be shown (the token's own user).
 */
export declare function presentUsers(ctx: AppContext, users: User[], emailOf: number): Promise<ApiUser[]>;
export declare function presentNotification(
  ctx: AppContext,
  notification: Notification,
): {
  notification_id: number;
  link: string;
  message: string;
  icon: string;
};
/** The Photo record of photo.getPhotos. */
export declare function presentPhoto(photo: Photo): {
  photo_id: number;
  name: string;
  photo_100px: string;
  photo_240px: string;
  photo_original: string;
};
/** The output of photo.addPhoto: one URL per size. */
export declare function presentUploadedPhoto(photo: Photo): {
  photo_id: number;
  original: string;
  '75px': string;
  '100px': string;
  '150px': string;
  '240px': string;
  '500px': string;
  '1024px': string;
};
