import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Seals app secrets at rest. Unlike keys and tokens, an app secret cannot be stored as a hash:
 * the platform needs it itself, to check token.php's `sig`, to sign launch parameters and to sign
 * callbacks. So it is stored encrypted (AES-256-GCM) under a key that is not in the database:
 * `APP_SECRET_KEY` from the configuration, or on the embedded default a key file in DATA_DIR made
 * at first start. A copy of the database alone (a backup, a dump, a read-only SQL hole) gives no
 * secret away.
 *
 * Sealed form: `v1.<iv, base64url>.<ciphertext and tag, base64url>`; the app's id is the
 * additional data, so a sealed secret copied onto another app's row does not open.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('The app secret key must be 32 bytes.');
    this.#key = key;
  }

  seal(appId: number, secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(additionalData(appId));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  open(appId: number, sealed: string): string {
    const [version, iv, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !body) throw new Error(`The secret of APP ID ${appId} is not sealed as v1.`);
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(additionalData(appId));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
  }
}

const additionalData = (appId: number) => Buffer.from(`app:${appId}`, 'utf8');

/** `APP_SECRET_KEY` as 32 bytes: 64 hex digits or 43 base64url characters. */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64url');
  if (key.length !== 32) throw new Error('APP_SECRET_KEY must be 32 bytes: 64 hex digits or 43 base64url characters.');
  return key;
}

/** The key file of the embedded default: read, or made (readable by this user only) at the first start. */
export async function keyFromFile(file: string): Promise<Buffer> {
  try {
    return parseSecretKey(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  try {
    // 'wx': of two processes starting on one DATA_DIR, the second reads the first's key.
    await writeFile(file, `${key.toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return parseSecretKey(await readFile(file, 'utf8'));
  }
  await chmod(file, 0o600);
  return key;
}
