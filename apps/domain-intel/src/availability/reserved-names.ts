import type { NormalizedDomain } from '../domain/normalize.ts';
import { parseDomain } from '../domain/normalize.ts';

/**
 * Names registries refuse to register (their reserved lists), from configuration: a map of
 * TLD → entries, each a label (`example`) or a whole name (`example.com`), IDN allowed.
 * Registries answer most reserved names with a plain RDAP 404, so this list is read first.
 */
export class ReservedNames {
  readonly #names = new Set<string>();

  constructor(byTld: Readonly<Record<string, readonly string[]>>) {
    for (const [tld, entries] of Object.entries(byTld)) {
      for (const entry of entries) {
        const name = entry.includes('.') ? entry : `${entry}.${tld}`;
        const parsed = parseDomain(name);
        if (!parsed.ok)
          throw new Error(`CHECK_RESERVED_NAMES: "${name}" is not a registrable name (${parsed.error.message})`);
        this.#names.add(parsed.domain.name);
      }
    }
  }

  has(domain: NormalizedDomain): boolean {
    return this.#names.has(domain.name);
  }
}
