/**
 * What an app may ask of a user. Each api.php method requires one permission; the app
 * declares the ones it needs, and the user grants them on the consent page.
 */
export const PERMISSIONS = {
  basic_profile: 'Your name, user name, profile picture, country and gender, and those of other people',
  email: 'Your e-mail address',
  friends: 'Your friends list, and whether two people are friends',
  mail_count: 'How many unread messages you have (never their content)',
  notifications: 'Your notifications',
  photos_read: 'The photos you and others let you see',
  photos_upload: 'Upload photos to your album',
  send_notifications: 'Send you notifications',
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export const isPermission = (value: string): value is Permission => Object.hasOwn(PERMISSIONS, value);

/** Stored as one comma-separated text column (the same on SQLite and Postgres), in the order above. */
export function encodePermissions(permissions: Iterable<Permission>): string {
  const chosen = new Set(permissions);
  return PERMISSION_NAMES.filter((name) => chosen.has(name)).join(',');
}

export function decodePermissions(stored: string | null | undefined): Permission[] {
  if (!stored) return [];
  return stored.split(',').filter(isPermission);
}

/** Whether `granted` covers every one of `needed`. */
export const covers = (granted: readonly Permission[], needed: readonly Permission[]): boolean =>
  needed.every((permission) => granted.includes(permission));
