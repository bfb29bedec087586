import type { Config } from '../config.ts';
import type { NormalizedDomain } from '../domain/normalize.ts';
import { parseDomain } from '../domain/normalize.ts';
import { loadReservedNameData, loadRootZone } from '../tlds/tld-data.ts';

/** Second-level labels every gTLD of a class must reserve, with the rule that says so. */
export interface ReservedLabelGroup {
  /** e.g. "ICANN base Registry Agreement, Specification 5 §3". */
  citation: string;
  labels: readonly string[];
}

export interface ReservedNameLists {
  /** The operator's own list (CHECK_RESERVED_NAMES): TLD → labels or whole names, IDN allowed. */
  operator: Readonly<Record<string, readonly string[]>>;
  /** Labels reserved under every TLD of `gtlds` (ICANN Registry Agreement, Specification 5). */
  gtldGroups: readonly ReservedLabelGroup[];
  /** The TLDs ICANN's Registry Agreement binds (generic, sponsored, generic-restricted in the root zone). */
  gtlds: ReadonlySet<string>;
  /** Names a registry publishes as reserved: TLD → labels, with where the list comes from. */
  registryLists: Readonly<Record<string, { source: string; labels: readonly string[] }>>;
}

/**
 * Names no one can register, and why. Registries answer most reserved names exactly like free
 * ones (RDAP 404, WHOIS "not found"), so these lists are read before any registry is asked: a
 * reserved name must never read `available`.
 */
export class ReservedNames {
  /** Whole names (operator and registry lists) → the list that reserves them. */
  readonly #names = new Map<string, string>();
  /** Labels reserved under every gTLD → the rule that reserves them. */
  readonly #gtldLabels = new Map<string, string>();
  readonly #gtlds: ReadonlySet<string>;

  constructor(lists: ReservedNameLists) {
    this.#gtlds = lists.gtlds;
    for (const group of lists.gtldGroups) {
      for (const label of group.labels) this.#gtldLabels.set(label.toLowerCase(), group.citation);
    }
    for (const [tld, list] of Object.entries(lists.registryLists)) {
      for (const label of list.labels) {
        this.#add(`${label}.${tld}`, `the .${tld} registry's published reserved list (${list.source})`, 'registry');
      }
    }
    for (const [tld, entries] of Object.entries(lists.operator)) {
      for (const entry of entries) {
        this.#add(
          entry.includes('.') ? entry : `${entry}.${tld}`,
          "this service's reserved list",
          'CHECK_RESERVED_NAMES',
        );
      }
    }
  }

  /** Which list reserves the name, in words, or null when none does. */
  listOf(domain: NormalizedDomain): string | null {
    const named = this.#names.get(domain.name);
    if (named) return named;
    if (!this.#gtlds.has(domain.tld)) return null;
    const citation = this.#gtldLabels.get(domain.label);
    return citation ? `every gTLD reserves "${domain.label}" (${citation})` : null;
  }

  #add(name: string, why: string, origin: string): void {
    const parsed = parseDomain(name);
    if (!parsed.ok) throw new Error(`${origin}: "${name}" is not a registrable name (${parsed.error.message})`);
    this.#names.set(parsed.domain.name, why);
  }
}

/** The TLD types ICANN's Registry Agreement binds (its Specification 5 applies to them). */
const AGREEMENT_TLD_TYPES = new Set(['generic', 'sponsored', 'generic-restricted']);

/** The lists in force: the built-in tables (src/tlds/data/) and CHECK_RESERVED_NAMES. */
export function createReservedNames(config: Pick<Config, 'CHECK_RESERVED_NAMES'>): ReservedNames {
  const data = loadReservedNameData();
  const gtlds = new Set(
    loadRootZone()
      .entries.filter((entry) => AGREEMENT_TLD_TYPES.has(entry.type))
      .map((entry) => entry.tld),
  );
  return new ReservedNames({
    operator: config.CHECK_RESERVED_NAMES,
    gtldGroups: data.groups.map((group) => ({
      citation: `${data.version}, ${group.section}`,
      labels: group.labels,
    })),
    gtlds,
    registryLists: Object.fromEntries(data.registryLists),
  });
}
