import type { Suggestion, SuggestionStats } from '@repo/contracts/domain-intel';
import { type Candidate, generateCandidates } from './candidates.ts';
import { type AvailabilityVerdict, confirmBestFirst } from './confirmation.ts';
import { parseKeyword } from './keyword.ts';
import { byScore, scoreCandidate } from './ranking.ts';
import { resolveTlds } from './tld-selection.ts';

/** The availability engine (RDAP with cache, per-server limits and deadline) as suggestions use it. */
export interface AvailabilityChecker {
  check(names: string[], options: { deadline?: number }): Promise<AvailabilityVerdict[]>;
}

/** The zone index as suggestions use it: in which tracked TLDs a label is delegated today. */
export interface ZoneLabels {
  /** TLDs with an index in service (only these can be screened). */
  indexedTlds(): string[];
  tldsWithLabel(label: string): Promise<string[]>;
}

export interface SuggestionSettings {
  /** Tracked TLDs then popular ones, most preferred first. */
  defaultTlds: readonly string[];
  deadlineMs: number;
  maxResults: number;
  confirmConcurrency: number;
  maxRdapChecks: number;
  /** Told about zone-index failures, which only cost the screening (RDAP still decides). */
  onError?: (error: unknown) => void;
}

export interface SuggestionRun {
  suggestions: Suggestion[];
  stats: SuggestionStats;
}

interface Ranked {
  candidate: Candidate;
  score: number;
}

/**
 * Keyword suggestions: generate candidates, drop those in the latest zone snapshot, rank the
 * rest by the documented score (ranking.ts), and confirm the best by RDAP until enough are
 * available or the deadline passes. Only names the availability engine calls available are
 * returned.
 */
export class SuggestionService {
  constructor(
    private readonly availability: AvailabilityChecker,
    private readonly zoneLabels: ZoneLabels | undefined,
    private readonly settings: SuggestionSettings,
  ) {}

  async suggest(request: { keyword: unknown; tld?: string }): Promise<SuggestionRun> {
    const deadline = Date.now() + this.settings.deadlineMs;
    const keyword = parseKeyword(request.keyword);
    const tlds = resolveTlds(request.tld, this.settings.defaultTlds, keyword.tldHint);
    const candidates = generateCandidates(keyword, tlds);
    const { ranked, screened, inZone } = await this.#screenAndRank(candidates);

    const outcome = await confirmBestFirst(
      ranked,
      async ({ candidate }, checkDeadline) => {
        const [verdict] = await this.availability.check([candidate.domain], { deadline: checkDeadline });
        if (!verdict) throw new Error(`no availability verdict for ${candidate.domain}`);
        return verdict;
      },
      {
        want: this.settings.maxResults,
        concurrency: this.settings.confirmConcurrency,
        maxChecks: this.settings.maxRdapChecks,
        deadline,
      },
    );
    const suggestions = outcome.confirmed
      .map(({ item, verdict }) => ({ ...item, verdict }))
      .sort(byScore)
      .slice(0, this.settings.maxResults)
      .map(({ candidate, score, verdict }) => ({
        domain: candidate.domain,
        unicode_domain: candidate.unicodeDomain,
        tld: candidate.tld,
        available: true as const,
        source: verdict.source,
        ...(verdict.server ? { server: verdict.server } : {}),
        ...(verdict.cached ? { cached: true } : {}),
        score,
        kind: candidate.kind,
        checked_at: verdict.checked_at,
      }));
    return {
      suggestions,
      stats: {
        tlds,
        candidates: candidates.length,
        screened,
        in_zone: inZone,
        checked: outcome.checked,
        unconfirmed: outcome.unconfirmed,
        deadline_reached: outcome.deadlineReached,
      },
    };
  }

  /**
   * One zone-index lookup per distinct label across all indexed TLDs answers both questions:
   * is this candidate already delegated (drop it), and in how many other TLDs is its label
   * registered (the alt-TLD demand signal of the score).
   */
  async #screenAndRank(candidates: Candidate[]): Promise<{ ranked: Ranked[]; screened: number; inZone: number }> {
    const zone = this.zoneLabels;
    const labels = [...new Set(candidates.map((candidate) => candidate.label))];
    const presence = new Map<string, Set<string>>();
    if (zone) {
      const found = await Promise.all(
        labels.map((label) =>
          zone.tldsWithLabel(label).catch((error: unknown) => {
            // The index only saves RDAP calls and adds a ranking signal; without it RDAP still decides.
            this.settings.onError?.(error);
            return [];
          }),
        ),
      );
      for (const [i, label] of labels.entries()) presence.set(label, new Set(found[i]));
    }
    const indexed = new Set(zone?.indexedTlds() ?? []);
    let screened = 0;
    let inZone = 0;
    const ranked: Ranked[] = [];
    for (const candidate of candidates) {
      const registeredIn = presence.get(candidate.label) ?? new Set<string>();
      if (indexed.has(candidate.tld)) screened++;
      if (registeredIn.has(candidate.tld)) {
        inZone++;
        continue;
      }
      ranked.push({ candidate, score: scoreCandidate(candidate, registeredIn.size) });
    }
    return { ranked: ranked.sort(byScore), screened, inZone };
  }
}
