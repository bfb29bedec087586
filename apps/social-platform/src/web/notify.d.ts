import type { AppContext } from '../context.ts';
import type { User } from '../users/users-service.ts';
/**
 * The notifications the web pages create: a friend request, an accepted request, new mail.
 * Links are platform paths, so they work behind any PUBLIC_URL.
 */
export declare const notify: {
  friendRequest: (
    ctx: AppContext,
    from: User,
    toUserId: number,
  ) => Promise<{
    link: string;
    id: number;
    created_at: number;
    message: string;
    user_id: number;
    seen: number;
    icon: string | null;
  }>;
  requestAccepted: (
    ctx: AppContext,
    by: User,
    toUserId: number,
  ) => Promise<{
    link: string;
    id: number;
    created_at: number;
    message: string;
    user_id: number;
    seen: number;
    icon: string | null;
  }>;
  mail: (
    ctx: AppContext,
    from: User,
    toUserId: number,
  ) => Promise<{
    link: string;
    id: number;
    created_at: number;
    message: string;
    user_id: number;
    seen: number;
    icon: string | null;
  }>;
};
