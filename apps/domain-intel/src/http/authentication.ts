import { isAppError, utcDate } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge } from 'prom-client';
import type { Caller } from '../accounts/caller.ts';
import type { AccountEventListener } from '../delivery/account-events.ts';
import { type QuotaStatus, rateLimitHeaders } from '../quota/quota-service.ts';
import type { UnansweredTakes } from '../quota/unanswered-takes.ts';

/** The share of the daily quota at which the account gets a `quota.warning` event. */
const QUOTA_WARNING_SHARE = 0.8;

/**
 * `quota.warning` when a call reaches 80 % of the daily limit, `quota.exhausted` when it uses
 * the last unit: the call that crosses the line reports it, and the per-day dedupe key makes
 * it one event per account and day however many instances see it.
 */
function reportQuotaThresholds(report: AccountEventListener, caller: Caller, status: QuotaStatus, at: number): void {
  if (status.limit === null || !status.allowed) return;
  const day = utcDate(at);
  const data = { plan: caller.plan.id, limit: status.limit, used: status.used, day };
  if (status.used === Math.ceil(status.limit * QUOTA_WARNING_SHARE)) {
    report(caller.accountId, 'quota.warning', data, `quota.warning:${caller.accountId}:${day}`);
  }
  if (status.used === status.limit) {
    report(caller.accountId, 'quota.exhausted', data, `quota.exhausted:${caller.accountId}:${day}`);
  }
}

/**
 * Every Authorization header the request carried. Node keeps only the first in
 * `request.headers` and drops the rest; the raw list still has them all.
 */
function authorizationHeaders(request: FastifyRequest): string[] {
  const raw = request.raw.rawHeaders;
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') values.push(raw[i + 1]!);
  }
  return values;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** When this call took a unit of quota (so a failure can give it back to the right day). */
    quotaTakenAt: number | undefined;
    /** The call ended in a refusal that does not count (see UNCOUNTED_ERRORS). */
    quotaGivenBack: boolean;
  }
}

/** A request id is used for the quota only when it looks like one a proxy makes; else the call counts as any other. */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The trusted proxy's id of the call, when the service is told which header carries it. */
function proxyRequestId(request: FastifyRequest, header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = request.headers[header];
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : undefined;
}

/**
 * Refusals that give the call's unit back: the caller got nothing they could have had on their
 * plan (a Free key asking for a bulk check or the export).
 */
const UNCOUNTED_ERRORS = new Set(['plan_required']);

/**
 * Bearer-key authentication and the daily quota for every route of the scope it is
 * registered in. Which calls count: every keyed call except those marked `quota: 'free'`
 * (/v1/quota); a bulk check is one call; a call that ends in a 5xx (our failure or an
 * upstream's) or in 403 `plan_required` is given back.
 */
export const authentication = fp(
  async (app: FastifyInstance) => {
    const { accounts, quota, clock, onAccountEvent, config } = app.ctx;
    const requestIdHeader = config.QUOTA_REQUEST_ID_HEADER;
    app.decorateRequest('quotaTakenAt', undefined);
    app.decorateRequest('quotaGivenBack', false);
    // Registered around /v1 and /account alike: one counter for both scopes.
    const repeatsName = `${app.metrics.prefix}quota_repeated_calls_total`;
    const quotaRepeats =
      (app.metrics.registry.getSingleMetric(repeatsName) as Counter | undefined) ??
      new Counter({
        name: repeatsName,
        help: "Calls let through uncounted as a proxy's re-send of a call counted before (QUOTA_REQUEST_ID_HEADER)",
        registers: [app.metrics.registry],
      });
    const unanswered = quota.unanswered;
    if (unanswered) registerUnansweredTakeMetrics(app, unanswered);
    const rejectionsName = `${app.metrics.prefix}quota_rejections_total`;
    const quotaRejections =
      (app.metrics.registry.getSingleMetric(rejectionsName) as Counter<'plan'> | undefined) ??
      new Counter({
        name: rejectionsName,
        help: 'Calls refused with 429 quota_exceeded, by plan',
        labelNames: ['plan'],
        registers: [app.metrics.registry],
      });

    /**
     * The call is the caller's: the quota's headers, and a unit taken unless the route is free.
     * Callback style, as the hook: a cached key costs no promise of its own, only the quota's.
     */
    const admit = (
      request: FastifyRequest,
      reply: FastifyReply,
      caller: Caller,
      free: boolean,
      done: (error?: Error) => void,
    ) => {
      request.caller = caller;
      request.routeOptions.config.prefetch?.(request);
      if (free) {
        quota.status(caller).then((status) => {
          reply.headers(rateLimitHeaders(status));
          done();
        }, done);
        return;
      }
      const takenAt = clock.now();
      quota.consume(caller, proxyRequestId(request, requestIdHeader)).then((status) => {
        try {
          reply.headers(rateLimitHeaders(status));
          if (status.repeated) quotaRepeats.inc();
          reportQuotaThresholds(onAccountEvent, caller, status, takenAt);
          if (!status.allowed) {
            quotaRejections.inc({ plan: caller.plan.id });
            done(quota.quotaExceeded(status));
            return;
          }
          request.quotaTakenAt = takenAt;
          done();
        } catch (error) {
          done(error as Error);
        }
      }, done);
    };

    app.addHook('onRequest', (request, reply, done) => {
      const config = request.routeOptions.config;
      // A CORS preflight never carries credentials; it is answered by the CORS plugin, uncounted.
      if (config.auth === 'none' || request.method === 'OPTIONS') {
        done();
        return;
      }
      let caller: Caller | undefined;
      try {
        caller = accounts.authenticateCached(authorizationHeaders(request));
      } catch (error) {
        done(error as Error);
        return;
      }
      const free = config.quota === 'free';
      if (caller) admit(request, reply, caller, free, done);
      else
        accounts
          .authenticate(authorizationHeaders(request))
          .then((found) => admit(request, reply, found, free, done), done);
    });

    app.addHook('onError', (request, _reply, error, done) => {
      if (isAppError(error) && UNCOUNTED_ERRORS.has(error.code)) request.quotaGivenBack = true;
      done();
    });

    // In onSend, not onResponse: the unit is back before the caller sees the failure, and the
    // failure's own headers can say so.
    app.addHook('onSend', (request, reply, payload, done) => {
      const givesBack = reply.statusCode >= 500 || request.quotaGivenBack;
      if (!request.caller || request.quotaTakenAt === undefined || !givesBack) {
        done(null, payload);
        return;
      }
      const { caller, quotaTakenAt } = request;
      request.quotaTakenAt = undefined;
      quota.refund(caller, quotaTakenAt).then(
        () => {
          const remaining = Number(reply.getHeader('X-RateLimit-Remaining'));
          if (Number.isInteger(remaining)) reply.header('X-RateLimit-Remaining', String(remaining + 1));
          done(null, payload);
        },
        (error: unknown) => {
          request.log.error({ err: error }, 'quota refund failed');
          done(null, payload);
        },
      );
    });
  },
  { name: 'authentication', dependencies: ['metrics'] },
);

/** The lost-reply takes' figures (see UnansweredTakes), read at each scrape; registered once per app. */
function registerUnansweredTakeMetrics(app: FastifyInstance, unanswered: UnansweredTakes): void {
  const { prefix, registry } = app.metrics;
  if (registry.getSingleMetric(`${prefix}quota_unanswered_takes`)) return;
  new Gauge({
    name: `${prefix}quota_unanswered_takes`,
    help: 'Takes whose reply from Redis was lost (the call answered 503), waiting to be given back if Redis counted them',
    registers: [registry],
    collect() {
      this.set(unanswered.waiting);
    },
  });
  // Totals the store keeps since start, read as they are at each scrape.
  const totals: Array<[name: string, help: string, read: () => number]> = [
    [
      'quota_unanswered_refunds_total',
      'Units given back because Redis had counted a take whose reply was lost (the call answered 503)',
      () => unanswered.refunded,
    ],
    [
      'quota_unanswered_expired_total',
      'Takes whose reply was lost and that could not be settled before their request id expired (a unit may stay counted)',
      () => unanswered.expired,
    ],
  ];
  for (const [name, help, read] of totals) {
    new Counter({
      name: `${prefix}${name}`,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }
}
