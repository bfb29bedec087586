import type { WhoisTarget } from '../whois/whois-client.ts';

const WHOIS_PORT = 43;

/**
 * Which port-43 WHOIS server answers for a TLD: IANA's root-zone database referral (the built-in
 * table, src/tlds/data/root-zone.json), or the operator's WHOIS_SERVERS entry, which wins. An
 * override changes where we connect, never whose answer patterns read the answer: those stay the
 * TLD's own server's (the override must speak its format, as a mirror or the simulator does).
 */
export class WhoisDirectory {
  readonly #targets = new Map<string, WhoisTarget>();

  constructor(ianaServers: ReadonlyMap<string, string>, overrides: Readonly<Record<string, string>>) {
    for (const [tld, host] of ianaServers) {
      this.#targets.set(tld, { tld, authority: host, address: { host, port: WHOIS_PORT } });
    }
    for (const [tld, value] of Object.entries(overrides)) {
      const address = parseHostPort(value);
      const authority = ianaServers.get(tld) ?? address.host;
      this.#targets.set(tld, { tld, authority, address });
    }
  }

  /** The server of the longest matching suffix (`co.uk` → `uk`'s server), or null. */
  targetFor(suffix: string): WhoisTarget | null {
    const labels = suffix.split('.');
    for (let index = 0; index < labels.length; index++) {
      const target = this.#targets.get(labels.slice(index).join('.'));
      if (target) return target;
    }
    return null;
  }

  /** Every TLD with a WHOIS server, for /v1/tlds. */
  entries(): IterableIterator<[string, WhoisTarget]> {
    return this.#targets.entries();
  }
}

function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(.+?)(?::(\d{1,5}))?$/.exec(value.toLowerCase()) as RegExpExecArray;
  const port = match[2] === undefined ? WHOIS_PORT : Number(match[2]);
  if (port < 1 || port > 65_535) throw new Error(`WHOIS_SERVERS: "${value}" has no valid port`);
  return { host: match[1] as string, port };
}
