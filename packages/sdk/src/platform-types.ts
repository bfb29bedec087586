/** Types of the social platform's Application API client. */

import type { ApiErrorOutput } from '@repo/contracts/platform';

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

/** One call of `PlatformAppClient.batch`: a method and its parameters, as api.php takes them alone. */
export interface PlatformBatchCall {
  method: string;
  params?: Record<string, string | number | undefined>;
}

/**
 * What one call of a batch answered: its `output` and paging, or its error (`code`, `message`
 * and the details api.php gives: `parameter`, `permission`, `retry_after`). A failed call does not
 * fail the batch; a malformed batch throws a PlatformError as any call does.
 */
export type PlatformBatchResult<T = unknown> =
  | { ok: true; output: T; total: number; pages: number; page: number }
  | { ok: false; error: ApiErrorOutput['error'] };
