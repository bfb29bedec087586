import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';

/** The icon a notification shows when whoever added it gave none. */
export const DEFAULT_NOTIFICATION_ICON_PATH = '/icons/notification.png';

const BELL_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 24 24">
  <rect width="24" height="24" rx="6" fill="#1c7ed6"/>
  <path fill="#fff" d="M12 5a4 4 0 0 0-4 4v3.2L6.6 15h10.8L16 12.2V9a4 4 0 0 0-4-4zm-1.7 11.5a1.8 1.8 0 0 0 3.4 0z"/>
</svg>`;

/** Platform icons, rendered once from SVG at start-up and cached by browsers for a day. */
export async function iconRoutes(app: FastifyInstance): Promise<void> {
  const notificationIcon = await sharp(Buffer.from(BELL_SVG)).png().toBuffer();
  app.get(DEFAULT_NOTIFICATION_ICON_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply
      .header('Content-Type', 'image/png')
      .header('Cache-Control', 'public, max-age=86400')
      .header('Cross-Origin-Resource-Policy', 'cross-origin');
    return notificationIcon;
  });
}
