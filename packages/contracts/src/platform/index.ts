/** Every response record of the social platform's Application API (token.php, api.php), one file per area. */
export * from './counts.ts';
export * from './envelope.ts';
export * from './notification.ts';
export * from './photo.ts';
export * from './user.ts';
