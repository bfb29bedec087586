import { randomBytes } from 'node:crypto';

/** The TLDs the simulated CZDS account is approved for (the tracked TLDs of the dropped feed). */
export const DEFAULT_CZDS_TLDS = ['com', 'net', 'org', 'info', 'biz', 'xyz', 'online', 'site', 'top', 'store'] as const;

export type CzdsFault =
  /** Sends the headers and part of the body, then drops the connection. */
  | { kind: 'interrupt'; afterBytes: number }
  /** A complete HTTP response whose gzip body is cut short (Content-Length matches the cut). */
  | { kind: 'truncate'; keepBytes: number }
  /** A complete HTTP response with damaged gzip data. */
  | { kind: 'corrupt' }
  /** An error status instead of the file. */
  | { kind: 'status'; status: number };

/**
 * Test handles of the CZDS simulator: the account it accepts, the zones it serves, fault
 * switches for the next downloads, and counters to assert on (e.g. that a token is reused).
 */
export class CzdsSimControl {
  username = 'czds-user@example.com';
  password = 'czds-password';
  tlds: string[] = [...DEFAULT_CZDS_TLDS];
  readonly counts = {
    authentications: 0,
    failedAuthentications: 0,
    linkRequests: 0,
    downloads: new Map<string, number>(),
  };
  readonly #tokens = new Set<string>();
  readonly #faults: CzdsFault[] = [];

  issueToken(): string {
    const token = `sim.${randomBytes(24).toString('base64url')}`;
    this.#tokens.add(token);
    return token;
  }

  isValidToken(token: string | undefined): boolean {
    return token !== undefined && this.#tokens.has(token);
  }

  /** Makes every issued token invalid, as if it had expired. */
  expireTokens(): void {
    this.#tokens.clear();
  }

  /** Queues faults, each applied to one upcoming zone download in order. */
  failNextDownloads(...faults: CzdsFault[]): void {
    this.#faults.push(...faults);
  }

  takeFault(): CzdsFault | undefined {
    return this.#faults.shift();
  }

  countDownload(tld: string): void {
    this.counts.downloads.set(tld, (this.counts.downloads.get(tld) ?? 0) + 1);
  }
}
