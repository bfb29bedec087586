/** Types of the social platform's Application API client. */

// The records are the platform's own contracts (TypeBox schemas in @repo/contracts/platform), so
// the SDK cannot drift from what api.php sends; type-only, so nothing of them is bundled.
export type {
  ApiEnvelope,
  ApiErrorOutput,
  Friend as PlatformFriend,
  FriendshipCheck,
  Notification as PlatformNotification,
  NotificationAdded,
  Photo as PlatformPhoto,
  PhotoVisibility,
  TokenAnswer,
  UploadedPhoto,
  User as PlatformUser,
} from '@repo/contracts/platform';

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
