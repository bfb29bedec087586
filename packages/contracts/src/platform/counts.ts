import { type Static, Type } from 'typebox';
import { Literals } from '../schema-helpers.ts';

/** mail.getNewCount and notification.getNewCount: a bare integer in `output`. */
export const NewCount = Type.Integer({ minimum: 0, description: 'How many are unseen' });
export type NewCount = Static<typeof NewCount>;

/** friend.isFriend's answer. */
export const FriendshipCheck = Type.Object(
  { is_friend: Type.Union([Type.Literal(0), Type.Literal(1)], { description: '1: the two users are friends' }) },
  { $id: 'FriendshipCheck', description: 'Whether two users are friends' },
);
export type FriendshipCheck = Static<typeof FriendshipCheck>;

/** Who may see a photo or a friends list. */
export const VISIBILITY_VALUES = ['public', 'friends', 'private'] as const;
export const PhotoVisibility = Literals(VISIBILITY_VALUES);
export type PhotoVisibility = Static<typeof PhotoVisibility>;
