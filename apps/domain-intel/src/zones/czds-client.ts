import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '@repo/server-kit';
import { errorMessage } from '@repo/server-kit';
import { Agent, type Dispatcher, interceptors, request } from 'undici';
import { ZoneError } from './errors.ts';

export interface CzdsClientOptions {
  /** Account API host, e.g. https://account-api.icann.org (POST {authUrl}/api/authenticate). */
  authUrl: string;
  /** CZDS API host, e.g. https://czds-api.icann.org (GET {apiUrl}/czds/downloads/links). */
  apiUrl: string;
  username: string | undefined;
  password: string | undefined;
  clock: Clock;
  /** Retries of a failed request or an interrupted download (which resumes where it stopped). */
  maxRetries: number;
  /** First retry delay; doubles each time. */
  retryDelayMs: number;
  /** Idle time without a byte from the server before a request fails (and is retried). */
  timeoutMs: number;
}

/** ICANN issues tokens valid for 24 h; renewing a little early avoids a 401 mid-download. */
const TOKEN_LIFETIME_MS = 24 * 3_600_000;
const TOKEN_RENEW_MARGIN_MS = 10 * 60_000;

/**
 * Client of ICANN's Centralized Zone Data Service REST API: authenticate for a bearer token
 * (reused for its lifetime), list the zone download links, download zone files to disk.
 */
export class CzdsClient {
  readonly #dispatcher: Dispatcher;
  #token: { value: string; renewAt: number } | undefined;

  constructor(private readonly options: CzdsClientOptions) {
    this.#dispatcher = new Agent({
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connections: 4,
    }).compose(
      interceptors.redirect({ maxRedirections: 3 }),
      // Retries reconnect errors and 429/5xx; an interrupted body resumes with a Range request.
      interceptors.retry({
        maxRetries: options.maxRetries,
        minTimeout: options.retryDelayMs,
        maxTimeout: Math.max(options.retryDelayMs, 30_000),
        errorCodes: [
          'ECONNRESET',
          'ECONNREFUSED',
          'ENOTFOUND',
          'ENETDOWN',
          'ENETUNREACH',
          'EHOSTDOWN',
          'EPIPE',
          'UND_ERR_SOCKET',
          'UND_ERR_BODY_TIMEOUT',
          'UND_ERR_HEADERS_TIMEOUT',
        ],
      }),
    );
  }

  /** A valid access token, authenticating only when there is none or it is about to expire. */
  async accessToken(): Promise<string> {
    const now = this.options.clock.now();
    if (this.#token && now < this.#token.renewAt) return this.#token.value;
    const { username, password } = this.options;
    if (!username || !password) {
      throw new ZoneError('czds_not_configured', 'CZDS_USERNAME and CZDS_PASSWORD must be set to download zone files.');
    }
    const response = await this.#send(`${this.options.authUrl}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const body = await response.body.text();
    if (response.statusCode === 401 || response.statusCode === 403) {
      throw new ZoneError(
        'czds_auth_failed',
        'ICANN refused the CZDS credentials (check CZDS_USERNAME/CZDS_PASSWORD).',
      );
    }
    if (response.statusCode !== 200) throw unavailable('authentication', response.statusCode);
    const token = parseAccessToken(body);
    this.#token = { value: token, renewAt: now + TOKEN_LIFETIME_MS - TOKEN_RENEW_MARGIN_MS };
    return token;
  }

  /** Absolute URLs of the zone files this account is approved for, e.g. https://…/czds/downloads/com.zone */
  async downloadLinks(): Promise<string[]> {
    const response = await this.#authorized(`${this.options.apiUrl}/czds/downloads/links`, {});
    const body = await response.body.text();
    if (response.statusCode !== 200) throw unavailable('download links', response.statusCode);
    let links: unknown;
    try {
      links = JSON.parse(body);
    } catch (error) {
      throw new ZoneError('czds_unavailable', 'CZDS answered the download-links request with invalid JSON.', {
        cause: error,
      });
    }
    if (!Array.isArray(links) || !links.every((link) => typeof link === 'string')) {
      throw new ZoneError('czds_unavailable', 'CZDS download links are not a JSON array of URLs.');
    }
    return links;
  }

  /** The download link of one TLD, or a clear error if the account is not approved for it. */
  async linkFor(tld: string): Promise<string> {
    const links = await this.downloadLinks();
    const link = links.find((candidate) => zoneOfLink(candidate) === tld);
    if (!link) {
      throw new ZoneError(
        'czds_zone_not_approved',
        `This CZDS account has no download link for .${tld}: request access at https://czds.icann.org.`,
      );
    }
    return link;
  }

  /**
   * Downloads a zone file to `destination`. The body goes to `<destination>.part` first; a part
   * left by an earlier, interrupted run is resumed with a Range request. The file appears under
   * its final name only once its full length has arrived.
   */
  async download(url: string, destination: string): Promise<{ bytes: number }> {
    const partial = `${destination}.part`;
    await mkdir(path.dirname(destination), { recursive: true });
    const resumeFrom = await sizeOf(partial);
    const response = await this.#authorized(url, resumeFrom > 0 ? { range: `bytes=${resumeFrom}-` } : {});

    if (response.statusCode === 416) {
      // The part no longer matches what the server holds (a new day's file): start over.
      await response.body.dump();
      await rm(partial, { force: true });
      return this.download(url, destination);
    }
    if (response.statusCode === 403 || response.statusCode === 404) {
      await response.body.dump();
      throw new ZoneError('czds_zone_not_approved', `CZDS refused the download of ${url} (${response.statusCode}).`);
    }
    if (response.statusCode !== 200 && response.statusCode !== 206) {
      await response.body.dump();
      throw unavailable(`download of ${url}`, response.statusCode);
    }
    const appending = response.statusCode === 206;
    const expectedTotal = expectedLength(response.headers, appending ? resumeFrom : 0);
    try {
      await pipeline(response.body, createWriteStream(partial, { flags: appending ? 'a' : 'w' }));
    } catch (error) {
      const reason = errorMessage(error);
      throw new ZoneError(
        'czds_unavailable',
        `The download of ${url} was interrupted (${reason}); the next run resumes it from ${partial}.`,
        { cause: error },
      );
    }
    const bytes = await sizeOf(partial);
    if (expectedTotal !== undefined && bytes !== expectedTotal) {
      throw new ZoneError('czds_unavailable', `The download of ${url} stopped at ${bytes} of ${expectedTotal} bytes.`);
    }
    await rename(partial, destination);
    return { bytes };
  }

  async close(): Promise<void> {
    await this.#dispatcher.close();
  }

  /** A request with the bearer token; on a 401 (token revoked early) authenticates once more. */
  async #authorized(url: string, headers: Record<string, string>): Promise<Dispatcher.ResponseData<unknown>> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      const response = await this.#send(url, {
        method: 'GET',
        headers: { ...headers, authorization: `Bearer ${token}`, accept: '*/*' },
      });
      if (response.statusCode !== 401) return response;
      await response.body.dump();
      this.#token = undefined;
      if (attempt > 0) throw new ZoneError('czds_auth_failed', `CZDS refused a fresh access token for ${url}.`);
    }
  }

  async #send(url: string, options: Parameters<typeof request>[1]): Promise<Dispatcher.ResponseData<unknown>> {
    try {
      return await request(url, { ...options, dispatcher: this.#dispatcher });
    } catch (error) {
      const reason = errorMessage(error);
      throw new ZoneError('czds_unavailable', `CZDS could not be reached at ${new URL(url).host}: ${reason}`, {
        cause: error,
      });
    }
  }
}

/** The TLD a CZDS link points at: `…/czds/downloads/com.zone` → `com`. */
export function zoneOfLink(link: string): string | undefined {
  const match = /\/([a-z0-9-]+)\.zone$/i.exec(new URL(link).pathname);
  return match?.[1]?.toLowerCase();
}

function parseAccessToken(body: string): string {
  try {
    const parsed = JSON.parse(body) as { accessToken?: unknown };
    if (typeof parsed.accessToken === 'string' && parsed.accessToken.length > 0) return parsed.accessToken;
  } catch {
    // handled below: the same error for malformed JSON and a missing token
  }
  throw new ZoneError('czds_auth_failed', 'The CZDS authentication answer carries no accessToken.');
}

function unavailable(what: string, status: number): ZoneError {
  return new ZoneError('czds_unavailable', `CZDS ${what} failed with HTTP ${status}.`, { details: { status } });
}

/** Total file size announced by the server (Content-Range total, else offset + Content-Length). */
function expectedLength(headers: Dispatcher.ResponseData['headers'], offset: number): number | undefined {
  const range = headers['content-range'];
  const total = typeof range === 'string' ? /\/(\d+)$/.exec(range)?.[1] : undefined;
  if (total) return Number(total);
  const length = headers['content-length'];
  return typeof length === 'string' ? offset + Number(length) : undefined;
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}
