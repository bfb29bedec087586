import { type Static, Type } from 'typebox';
import { Nullable } from '../schema-helpers.ts';

const url = (description: string) => Type.String({ format: 'uri', description });

/**
 * The fields of the spec's User table every record has. Every field is always present: a user
 * without a picture has the platform's default avatar in the four `photo_*`, and `country_iso`
 * and `gender` are null when the user has not said.
 */
const userFields = {
  user_id: Type.Integer({ minimum: 1 }),
  user_name: Type.String({ description: 'URL-safe handle' }),
  full_name: Type.String(),
  joined: Type.Integer({ description: 'Unix time, seconds' }),
  country_iso: Nullable(Type.String({ pattern: '^[A-Z]{2}$' }), {
    description: 'Two-letter country code; null when not given',
  }),
  gender: Nullable(Type.String(), { description: 'As the user wrote it; null when not given' }),
  photo_50px: url('50 px wide profile picture (the default avatar when the user has none)'),
  photo_50px_square: url('50 × 50 px profile picture'),
  photo_120px: url('120 px wide profile picture'),
  photo_original: url('The profile picture as uploaded (metadata removed)'),
  profile_url: url('The profile page on the platform'),
};

/**
 * user.getUser's record. `email` is always present: filled only for the token's own user and
 * when the app was granted the `email` permission, null otherwise.
 */
export const User = Type.Object(
  {
    ...userFields,
    email: Nullable(Type.String({ format: 'email' }), {
      description: "The token's own user's address with the email permission; null otherwise",
    }),
  },
  { $id: 'User', description: 'A user, as user.getUser gives it' },
);
export type User = Static<typeof User>;

/** An element of friend.getFriends: the User record without `email` (never part of a friends list). */
export const Friend = Type.Object(userFields, {
  $id: 'Friend',
  description: 'A user in a friends list: the User record without email',
});
export type Friend = Static<typeof Friend>;
