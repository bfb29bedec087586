import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { Availability, Envelope } from '@repo/contracts/domain-intel';
import { Counter } from 'prom-client';
import { planRequired } from '../../accounts/plan-required.ts';
import type { Plan } from '../../accounts/plans.ts';
import type { StartedCheck } from '../../availability/availability-service.ts';
import { normalizeDomain, parseDomain } from '../../domain/normalize.ts';
import { appError } from '../../error-catalogue.ts';
import { callerOf } from '../../http/caller-of.ts';
import { ok } from '../../http/envelope.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

/** Most names in one call, whatever the plan (the plan table may allow fewer). */
export const MAX_DOMAINS_PER_CHECK = 30;

const CheckQuery = Type.Object({
  domain: Type.Optional(
    Type.String({ maxLength: 512, description: 'One domain name (IDN allowed)', examples: ['example.com'] }),
  ),
  domains: Type.Optional(
    Type.String({
      maxLength: 16_384,
      description: `Comma-separated names, at most ${MAX_DOMAINS_PER_CHECK} after trimming and de-duplication (Starter and Enterprise)`,
      examples: ['example.com,example.org,münchen.de'],
    }),
  ),
});

/**
 * The names of a `domains=` list: trimmed, de-duplicated (on the normalised name where
 * the entry is valid), order kept. Empty entries are refused rather than skipped: they
 * are usually a client's concatenation bug.
 */
export function splitDomainList(list: string): string[] {
  const entries = list.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) {
    throw appError('empty_domain_entry', 'The domains list has an empty entry (check for doubled or trailing commas).');
  }
  const seen = new Set<string>();
  const unique: string[] = [];
  for (const entry of entries) {
    const parsed = parseDomain(entry);
    const key = parsed.ok ? parsed.domain.name : entry.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(entry);
  }
  return unique;
}

function assertPlanAllows(plan: Plan, count: number): void {
  if (count > MAX_DOMAINS_PER_CHECK) {
    throw appError('too_many_domains', `At most ${MAX_DOMAINS_PER_CHECK} domains per call; this call has ${count}.`, {
      details: {
        limit: MAX_DOMAINS_PER_CHECK,
        count,
      },
    });
  }
  if (count > 1 && !plan.features.bulkCheck) {
    throw planRequired('bulkCheck', plan, 'Checking several domains in one call needs a Starter or Enterprise plan.');
  }
  if (count > plan.maxDomainsPerCheck) {
    throw appError('too_many_domains', `Your plan allows ${plan.maxDomainsPerCheck} domains per call.`, {
      details: {
        limit: plan.maxDomainsPerCheck,
        count,
      },
    });
  }
}

/** The names a check asks for, in order; throws the call's 400 (or 403 `plan_required`) when they cannot be checked. */
function namesOf(query: { domain?: string | undefined; domains?: string | undefined }, plan: Plan): string[] {
  const { domain, domains } = query;
  if (domain !== undefined && domains !== undefined) {
    throw appError('conflicting_parameters', 'Give either domain or domains, not both.');
  }
  if (domain !== undefined) return [normalizeDomain(domain).name];
  if (domains === undefined) {
    throw appError('missing_domain', 'Give the name to check in domain, or a comma-separated list in domains.');
  }
  const names = splitDomainList(domains);
  assertPlanAllows(plan, names.length);
  return names;
}

const isTextOrAbsent = (value: unknown): value is string | undefined =>
  value === undefined || typeof value === 'string';

declare module 'fastify' {
  interface FastifyRequest {
    /** The check this call's query asks for, begun while its quota was taken (see the route's `prefetch`). */
    startedCheck: StartedCheck | undefined;
  }
}

const checkRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.decorateRequest('startedCheck', undefined);
  // How often answers are unknown, and why, is what tells an operator a registry is in trouble.
  // Counted in plain numbers and handed to prom-client when /metrics is read: its labelled `inc`
  // validates and hashes the labels on every call, a measurable share of a cached check.
  const answerCounts = new Map<string, { labels: { status: string; source: string; reason: string }; count: number }>();
  new Counter({
    name: `${app.metrics.prefix}check_answers_total`,
    help: '/v1/check rows by status, source and reason',
    labelNames: ['status', 'source', 'reason'],
    registers: [app.metrics.registry],
    collect() {
      this.reset();
      for (const { labels, count } of answerCounts.values()) this.inc(labels, count);
    },
  });
  const countAnswer = (status: string, source: string, reason: string) => {
    const key = `${status} ${source} ${reason}`;
    const counted = answerCounts.get(key);
    if (counted) counted.count++;
    else answerCounts.set(key, { labels: { status, source, reason }, count: 1 });
  };
  app.get(
    '/check',
    {
      config: {
        // The cached verdicts are asked for (a Redis round trip) while the call's quota unit is taken.
        prefetch(request) {
          const { domain, domains } = request.query as Record<string, unknown>;
          // Only a query the schema accepts; any other is answered by validation or by the handler.
          if (!isTextOrAbsent(domain) || !isTextOrAbsent(domains)) return;
          try {
            request.startedCheck = app.ctx.availability.begin(namesOf({ domain, domains }, callerOf(request).plan));
          } catch {
            // A refused query: the handler throws it again, once the call is admitted and counted.
          }
        },
      },
      schema: {
        summary: 'Live availability of one or several domains',
        description:
          'Give `domain` (one name) or `domains` (comma-separated, up to 30; Starter and Enterprise). ' +
          'Each row is tri-state: `available` is true only when the registry answered that the name is not ' +
          'registered; a timeout, rate limit or registry error gives `unknown` with a `reason`, never available. ' +
          'An invalid entry in a list gets its own `invalid` row. One call counts once against the quota.',
        tags: ['availability'],
        querystring: CheckQuery,
        response: {
          200: Envelope(Type.Array(Availability)),
          ...keyedErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const started =
        request.startedCheck ?? app.ctx.availability.begin(namesOf(request.query, callerOf(request).plan));
      // The call's one budget, counted from its arrival (the key and quota checks spend it too) and
      // handed down to the registry's socket: every layer stops at this moment, none on a timer of its own.
      const deadline = Math.round(Date.now() - reply.elapsedTime) + app.ctx.config.CHECK_DEADLINE_MS;
      const results = await started.finish({ deadline });
      for (const row of results) countAnswer(row.status, row.source, row.reason ?? '');
      return ok(request, results, { count: results.length });
    },
  );
};

export default checkRoute;
