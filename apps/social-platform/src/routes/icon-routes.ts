import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';

/** The icon a notification shows when whoever added it gave none. */
export const DEFAULT_NOTIFICATION_ICON_PATH = '/icons/notification.png';

const BELL_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 24 24">
  <rect width="24" height="24" rx="6" fill="#1c7ed6"/>
  <path fill="#fff" d="M12 5a4 4 0 0 0-4 4v3.2L6.6 15h10.8L16 12.2V9a4 4 0 0 0-4-4zm-1.7 11.5a1.8 1.8 0 0 0 3.4 0z"/>
</svg>`;

/** The picture of a user who has none, as the reference platforms give one: a grey silhouette. */
const AVATAR_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 48 48">
  <rect width="48" height="48" fill="#dde3ea"/>
  <circle cx="24" cy="18" r="9" fill="#9aa7b5"/>
  <path fill="#9aa7b5" d="M6 48c0-10 8-16 18-16s18 6 18 16z"/>
</svg>`;

/** The default avatar in the sizes of the User record's four `photo_*` fields. */
export const DEFAULT_AVATAR_PATHS = {
  photo_50px: '/icons/avatar-50.png',
  photo_50px_square: '/icons/avatar-50-square.png',
  photo_120px: '/icons/avatar-120.png',
  photo_original: '/icons/avatar.png',
} as const;

const AVATAR_SIDES: Record<keyof typeof DEFAULT_AVATAR_PATHS, number> = {
  photo_50px: 50,
  photo_50px_square: 50,
  photo_120px: 120,
  photo_original: 480,
};

/** Platform icons, rendered once from SVG at start-up and cached by browsers for a day. */
export async function iconRoutes(app: FastifyInstance): Promise<void> {
  const serve = (path: string, png: Buffer) =>
    app.get(path, { schema: { hide: true } }, async (_request, reply) => {
      reply
        .header('Content-Type', 'image/png')
        .header('Cache-Control', 'public, max-age=86400')
        .header('Cross-Origin-Resource-Policy', 'cross-origin');
      return png;
    });
  serve(DEFAULT_NOTIFICATION_ICON_PATH, await sharp(Buffer.from(BELL_SVG)).png().toBuffer());
  for (const [field, path] of Object.entries(DEFAULT_AVATAR_PATHS) as [keyof typeof DEFAULT_AVATAR_PATHS, string][]) {
    const side = AVATAR_SIDES[field];
    serve(path, await sharp(Buffer.from(AVATAR_SVG)).resize(side, side).png().toBuffer());
  }
}
