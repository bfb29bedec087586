import sharp from 'sharp';

/** Escapes text for an SVG text node. */
const xml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A square avatar: the initials on a coloured disc, drawn with sharp (no binaries shipped). */
export function avatarImage(initials: string, color: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
    <rect width="400" height="400" fill="#f3f4f6"/>
    <circle cx="200" cy="200" r="190" fill="${color}"/>
    <text x="200" y="245" font-family="sans-serif" font-size="150" font-weight="bold" fill="#fff" text-anchor="middle">${xml(initials)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A landscape "photo": sky gradient, sun, hills and a caption, as a JPEG. */
export function landscapeImage(caption: string, sky: string, hill: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${sky}"/><stop offset="1" stop-color="#ffffff"/>
    </linearGradient></defs>
    <rect width="1600" height="1000" fill="url(#sky)"/>
    <circle cx="1250" cy="250" r="110" fill="#ffd166"/>
    <path d="M0 700 Q 400 480 800 690 T 1600 640 V 1000 H 0 Z" fill="${hill}"/>
    <text x="60" y="940" font-family="sans-serif" font-size="64" fill="#ffffff">${xml(caption)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}
