import type { DashboardSessions } from '../../dashboard/session-store.ts';
import { jsonForScript } from '../../dashboard/view-data.ts';
import { findViewer, noStore } from '../../dashboard/viewer.ts';
import { type ForecastErrorSummary, formatTimeOfDay } from '../../lifecycle/index.ts';
import type { DashboardApp } from './forms.ts';

/**
 * Drop forecasts in the dashboard: per tracked TLD the registry's batch time and the error of
 * the drop forecasts of the last 30 days (what GET /v1/tlds/{tld}/drops answers), charted.
 */
export function forecastRoutes(app: DashboardApp, sessions: DashboardSessions): void {
  const { accounts, lifecycle, config } = app.ctx;

  app.get('/dashboard/forecasts', async (request, reply) => {
    const viewer = await findViewer(request, sessions, accounts);
    if (!viewer) return reply.redirect('/dashboard', 303);
    const tlds = await Promise.all(
      config.TRACKED_TLDS.map(async (tld) => {
        const report = await lifecycle.dropReport(tld);
        return {
          tld,
          batchTime: report.batchTimeOfDay === null ? null : formatTimeOfDay(report.batchTimeOfDay),
          batchTimeSource: report.batchTimeSource,
          days: report.calendar.length,
          lastDay: report.calendar.at(-1) ?? null,
          error: report.error,
        };
      }),
    );
    const chart = {
      tlds: tlds.map((entry) => `.${entry.tld}`),
      earlyP50: tlds.map((entry) => negated(entry.error.early.p50Minutes)),
      earlyP90: tlds.map((entry) => negated(entry.error.early.p90Minutes)),
      lateP50: tlds.map((entry) => entry.error.late.p50Minutes),
      lateP90: tlds.map((entry) => entry.error.late.p90Minutes),
      inside: tlds.map((entry) => insideCount(entry.error)),
      outside: tlds.map((entry) => entry.error.drops - insideCount(entry.error)),
    };
    const anyError = tlds.some(
      (entry) => (entry.error.early.p90Minutes ?? 0) > 0 || (entry.error.late.p90Minutes ?? 0) > 0,
    );
    return noStore(reply).view('dashboard/forecasts', {
      viewer,
      tlds,
      hhmm: formatTimeOfDay,
      anyError,
      chartJson: jsonForScript(chart),
      csrfToken: reply.generateCsrf(),
    });
  });
}

/** Drops verified inside the published window. */
const insideCount = (error: ForecastErrorSummary) => Math.round((error.insideWindowShare ?? 0) * error.drops);

/** Minutes early are charted below zero. */
const negated = (minutes: number | null) => (minutes === null ? null : -minutes);
