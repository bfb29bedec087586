/** Records of the social platform's Application API (api.php). Every User field is always present. */

export interface PlatformUser {
  user_id: number;
  user_name: string;
  full_name: string;
  /** Unix time, seconds. */
  joined: number;
  /** null when the user has not said. */
  country_iso: string | null;
  gender: string | null;
  /** Only in the token's own user's record, and only with the app's `email` permission; null otherwise. */
  email: string | null;
  /** The platform's default avatar for a user without a picture. */
  photo_50px: string;
  photo_50px_square: string;
  photo_120px: string;
  photo_original: string;
  profile_url: string;
}

export interface PlatformNotification {
  notification_id: number;
  link: string;
  message: string;
  icon: string;
}

export interface PlatformPhoto {
  photo_id: number;
  name: string;
  photo_100px: string;
  photo_240px: string;
  photo_original: string;
}

/** The URLs of a freshly uploaded photo, by size. */
export interface UploadedPhoto {
  photo_id: number;
  original: string;
  '75px': string;
  '100px': string;
  '150px': string;
  '240px': string;
  '500px': string;
  '1024px': string;
}

/** One page of a list method (10 items a page). */
export interface PlatformPage<T> {
  items: T[];
  total: number;
  pages: number;
  page: number;
}

export interface UserSelector {
  /** Omitted: the token's own user. */
  userId?: number;
}

export interface PageSelector extends UserSelector {
  /** From 1. */
  page?: number;
}

export type PhotoVisibility = 'public' | 'friends' | 'private';
