/** The columns of a `User` (everything but the password hash). */
export const USER_COLUMNS = [
  'id',
  'user_name',
  'full_name',
  'email',
  'country_iso',
  'gender',
  'joined',
  'picture_photo_id',
  'friends_visibility',
  'test_app_id',
] as const;

/** The same, qualified, for queries that join `users` to another table. */
export const QUALIFIED_USER_COLUMNS = [
  'users.id',
  'users.user_name',
  'users.full_name',
  'users.email',
  'users.country_iso',
  'users.gender',
  'users.joined',
  'users.picture_photo_id',
  'users.friends_visibility',
  'users.test_app_id',
] as const;
