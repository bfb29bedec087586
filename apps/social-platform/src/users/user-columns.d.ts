/** The columns of a `User` (everything but the password hash). */
export declare const USER_COLUMNS: readonly [
  'id',
  'user_name',
  'full_name',
  'email',
  'country_iso',
  'gender',
  'joined',
  'picture_photo_id',
  'friends_visibility',
];
/** The same, qualified, for queries that join `users` to another table. */
export declare const QUALIFIED_USER_COLUMNS: readonly [
  'users.id',
  'users.user_name',
  'users.full_name',
  'users.email',
  'users.country_iso',
  'users.gender',
  'users.joined',
  'users.picture_photo_id',
  'users.friends_visibility',
];
