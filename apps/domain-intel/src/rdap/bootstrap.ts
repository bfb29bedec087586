import { mkdir, readFile, rename, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '@repo/server-kit';
import { Agent, request } from 'undici';
import { z } from 'zod';

/** The IANA RDAP bootstrap file for DNS (RFC 9224 §4): `services` is `[[tlds], [base URLs]]` entries. */
const BootstrapFile = z.object({
  version: z.string().optional(),
  publication: z.string().optional(),
  services: z.array(z.tuple([z.array(z.string()), z.array(z.string())]).rest(z.unknown())),
});

export interface RdapBootstrapOptions {
  /** `https://data.iana.org/rdap/dns.json`, another URL, or a file path. */
  source: string;
  /** TLD → base URL, for TLDs missing from (or wrong in) the bootstrap file. Wins over the file. */
  overrides: Readonly<Record<string, string>>;
  /**
   * TLD → base URLs registries publish but the file lacks (RDAP_EXTRA_SERVERS): asked only for
   * TLDs the file does not name, and also when the file cannot be loaded.
   */
  extras?: Readonly<Record<string, readonly string[]>>;
  /** Where the downloaded file is kept between restarts; undefined keeps it in memory only. */
  cacheFile: string | undefined;
  refreshMs: number;
  fetchTimeoutMs: number;
  clock: Clock;
  onError?: (error: unknown) => void;
}

/** Where a TLD's RDAP servers were found: RDAP_BOOTSTRAP_OVERRIDES, IANA's file, or RDAP_EXTRA_SERVERS. */
export type RdapServerOrigin = 'override' | 'iana' | 'extra';

export type BootstrapAnswer =
  /** The base URLs (each ending in `/`) serving `tld`, in the file's order. */
  | { kind: 'servers'; tld: string; baseUrls: string[]; origin: RdapServerOrigin }
  /** Neither the file nor the overrides name a server for this suffix. */
  | { kind: 'none' }
  /** The bootstrap file could not be loaded and no copy of it is at hand. */
  | { kind: 'unavailable'; message: string };

const MAX_BOOTSTRAP_BYTES = 5 * 1024 * 1024;

/**
 * Which RDAP server answers for which TLD. Loaded on first use (from the disk copy when it
 * is fresh), refreshed in the background once it is older than `refreshMs`; a failed
 * refresh keeps the copy in hand.
 */
export class RdapBootstrap {
  readonly #options: RdapBootstrapOptions;
  readonly #agent: Agent;
  #services: Map<string, string[]> | undefined;
  #loadedAt = 0;
  #loading: Promise<void> | undefined;

  constructor(options: RdapBootstrapOptions) {
    this.#options = options;
    this.#agent = new Agent({ maxResponseSize: MAX_BOOTSTRAP_BYTES });
  }

  /** The servers of the longest matching suffix: `co.uk` is looked up as `co.uk`, then `uk`. */
  async serversFor(suffix: string): Promise<BootstrapAnswer> {
    const labels = suffix.split('.');
    const candidates = labels.map((_, index) => labels.slice(index).join('.'));
    for (const candidate of candidates) {
      const override = this.#options.overrides[candidate];
      if (override)
        return { kind: 'servers', tld: candidate, baseUrls: [withTrailingSlash(override)], origin: 'override' };
    }
    let unavailable: string | undefined;
    try {
      await this.#ensureLoaded();
    } catch (error) {
      unavailable = `The RDAP bootstrap file could not be loaded: ${(error as Error).message}`;
    }
    if (unavailable === undefined) {
      for (const candidate of candidates) {
        const baseUrls = this.#services?.get(candidate);
        if (baseUrls && baseUrls.length > 0) return { kind: 'servers', tld: candidate, baseUrls, origin: 'iana' };
      }
    }
    for (const candidate of candidates) {
      const extra = this.#options.extras?.[candidate];
      if (extra && extra.length > 0) {
        return { kind: 'servers', tld: candidate, baseUrls: extra.map(withTrailingSlash), origin: 'extra' };
      }
    }
    return unavailable === undefined ? { kind: 'none' } : { kind: 'unavailable', message: unavailable };
  }

  /**
   * Every TLD with an RDAP server, and where it was found (for /v1/tlds): the file's (loaded on
   * demand; null when it cannot be), the extras and the overrides, in that order of precedence.
   */
  async allServers(): Promise<{
    fileLoaded: boolean;
    servers: Map<string, { baseUrls: string[]; origin: RdapServerOrigin }>;
  }> {
    const servers = new Map<string, { baseUrls: string[]; origin: RdapServerOrigin }>();
    for (const [tld, urls] of Object.entries(this.#options.extras ?? {})) {
      if (urls.length > 0) servers.set(tld, { baseUrls: urls.map(withTrailingSlash), origin: 'extra' });
    }
    let fileLoaded = true;
    try {
      await this.#ensureLoaded();
    } catch {
      fileLoaded = false;
    }
    for (const [tld, baseUrls] of this.#services ?? []) {
      if (baseUrls.length > 0) servers.set(tld, { baseUrls, origin: 'iana' });
    }
    for (const [tld, url] of Object.entries(this.#options.overrides)) {
      servers.set(tld, { baseUrls: [withTrailingSlash(url)], origin: 'override' });
    }
    return { fileLoaded, servers };
  }

  /** Resolves once no load or background refresh is in flight (its failure is the refresh's own). */
  async whenIdle(): Promise<void> {
    await this.#loading?.catch(() => {});
  }

  async close(): Promise<void> {
    await this.#loading?.catch(() => {});
    await this.#agent.close();
  }

  async #ensureLoaded(): Promise<void> {
    if (!this.#services) {
      this.#loading ??= this.#load().finally(() => {
        this.#loading = undefined;
      });
      await this.#loading;
      return;
    }
    if (this.#options.clock.now() - this.#loadedAt >= this.#options.refreshMs && !this.#loading) {
      this.#loading = this.#refresh()
        .catch((error) => this.#options.onError?.(error))
        .finally(() => {
          this.#loading = undefined;
        });
    }
  }

  /**
   * First load of this process: the source, asked conditionally when a disk copy exists, else
   * that copy. The copy is never trusted unasked, however fresh: a source's content can change
   * under the same URL (IANA publishes a new file, a simulator restarts its registries on other
   * ports), and a copy that names servers which moved would make every live check `unknown`.
   */
  async #load(): Promise<void> {
    const cached = await this.#readCache();
    try {
      const text = await this.#fetchSource(cached?.savedAt);
      if (text === NOT_MODIFIED && cached) {
        const now = this.#options.clock.now();
        this.#use(cached.file, now);
        await this.#writeCache(cached.text, now);
        return;
      }
      if (text === NOT_MODIFIED) throw new Error(`${this.#options.source} answered 304 to an unconditional request`);
      this.#useFetched(text);
      await this.#writeCache(text, this.#loadedAt);
    } catch (error) {
      if (!cached) throw error;
      this.#options.onError?.(error);
      this.#use(cached.file, cached.savedAt);
    }
  }

  async #refresh(): Promise<void> {
    const text = await this.#fetchSource();
    if (text === NOT_MODIFIED) return;
    this.#useFetched(text);
    await this.#writeCache(text, this.#loadedAt);
  }

  #useFetched(text: string): void {
    this.#use(parseBootstrap(text), this.#options.clock.now());
  }

  #use(file: z.infer<typeof BootstrapFile>, loadedAt: number): void {
    const services = new Map<string, string[]>();
    for (const [tlds, urls] of file.services) {
      const baseUrls = urls.filter((url) => /^https?:\/\//i.test(url)).map(withTrailingSlash);
      // RFC 9224 §4: prefer https when a service lists both.
      baseUrls.sort((a, b) => Number(b.startsWith('https:')) - Number(a.startsWith('https:')));
      for (const tld of tlds) services.set(tld.toLowerCase(), baseUrls);
    }
    this.#services = services;
    this.#loadedAt = loadedAt;
  }

  /** The source's text, or NOT_MODIFIED when it has not changed since `copySavedAt`. */
  async #fetchSource(copySavedAt?: number): Promise<string | typeof NOT_MODIFIED> {
    const { source, fetchTimeoutMs } = this.#options;
    if (!/^https?:\/\//i.test(source)) return readFile(source, 'utf8');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (copySavedAt !== undefined) headers['if-modified-since'] = new Date(copySavedAt).toUTCString();
    const response = await request(source, {
      dispatcher: this.#agent,
      signal: AbortSignal.timeout(fetchTimeoutMs),
      headers,
    });
    if (response.statusCode === 304) {
      await response.body.dump();
      return NOT_MODIFIED;
    }
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new Error(`${source} answered HTTP ${response.statusCode}`);
    }
    return response.body.text();
  }

  async #readCache(): Promise<{ file: z.infer<typeof BootstrapFile>; text: string; savedAt: number } | undefined> {
    const { cacheFile } = this.#options;
    if (!cacheFile) return undefined;
    try {
      const [text, info] = await Promise.all([readFile(cacheFile, 'utf8'), stat(cacheFile)]);
      return { file: parseBootstrap(text), text, savedAt: info.mtimeMs };
    } catch {
      return undefined;
    }
  }

  async #writeCache(text: string, savedAt: number): Promise<void> {
    const { cacheFile } = this.#options;
    if (!cacheFile) return;
    try {
      await mkdir(path.dirname(cacheFile), { recursive: true });
      // Write then rename, so a crash never leaves a half-written copy to be read next start.
      const partial = `${cacheFile}.${process.pid}.partial`;
      await writeFile(partial, text);
      // The copy's age is read from its mtime, on the same clock that decides staleness.
      await utimes(partial, savedAt / 1000, savedAt / 1000);
      await rename(partial, cacheFile);
    } catch (error) {
      this.#options.onError?.(error);
    }
  }
}

const NOT_MODIFIED = Symbol('not modified');

function parseBootstrap(text: string): z.infer<typeof BootstrapFile> {
  const result = BootstrapFile.safeParse(JSON.parse(text));
  if (!result.success) throw new Error('the RDAP bootstrap file does not have the RFC 9224 shape');
  return result.data;
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
