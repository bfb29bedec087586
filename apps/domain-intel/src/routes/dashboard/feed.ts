import { Readable } from 'node:stream';
import { type Static, Type } from '@fastify/type-provider-typebox';
import {
  DEFAULT_LIMIT,
  FEED_FILTER_PARAMETERS,
  FEED_FILTER_WIRE,
  FEED_SORTS,
  FEED_STATUSES,
  type FeedFilterParameter,
  type FeedFilterValue,
  type FeedFilterWire,
  type FeedRecord,
  MAX_LIMIT,
  MAX_OFFSET,
} from '@repo/contracts/domain-intel';
import type { FeedQueryInput } from '@repo/feed-index';
import { isAppError, toPublicError, utcDate } from '@repo/server-kit';
import { dropsPerDay } from '../../dashboard/drop-stats.ts';
import type { DashboardSessions } from '../../dashboard/session-store.ts';
import { jsonForScript } from '../../dashboard/view-data.ts';
import { findViewer, noStore, requireViewer } from '../../dashboard/viewer.ts';
import { parseFeedFilters, parseFeedPage } from '../../feed/feed-params.ts';
import { CSV_HEADER, toCsvLine } from '../../feed/feed-row.ts';
import { type DashboardApp, FormField } from './forms.ts';

const CHART_DAYS = 30;
/** What a plan without bulk export downloads: the first page of the feed, as /v1/domains gives it. */
export const CSV_ROWS_WITHOUT_BULK_EXPORT = MAX_LIMIT;
const FILTER_NAMES = FEED_FILTER_PARAMETERS;
const PAGE_NAMES = ['sort', 'limit', 'offset'] as const;

/** One filter's field on the explorer form, drawn by feed.eta from its kind of value. */
export interface ExplorerField {
  parameter: FeedFilterParameter;
  label: string;
  value: FeedFilterValue;
  range: { min: number; max: number } | null;
}

/** Where each kind of field sits on the form: the TLD boxes, the inputs, the checkboxes, the dates, the status. */
const FORM_PLACE: Record<FeedFilterValue, number> = {
  'tld-list': 0,
  'whole-number': 1,
  'label-text': 1,
  allowed: 2,
  date: 3,
  status: 4,
};

/** The explorer's filter fields, from each filter's wire entry (in its order within a place). */
export const EXPLORER_FIELDS: readonly ExplorerField[] = FEED_FILTER_PARAMETERS.flatMap((parameter) => {
  const wire: FeedFilterWire = FEED_FILTER_WIRE[parameter];
  return wire.formLabel === null
    ? []
    : [{ parameter, label: wire.formLabel, value: wire.value, range: wire.range ?? null }];
}).sort((a, b) => FORM_PLACE[a.value] - FORM_PLACE[b.value]);

/**
 * The explorer's query: the feed's filters and paging, each a form field (the TLD boxes repeat).
 * Their values are the feed's to judge (parseFeedFilters, parseFeedPage), with the same catalogue
 * codes as GET /v1/domains.
 */
const ExplorerQuery = Type.Object(
  Object.fromEntries([...FILTER_NAMES, ...PAGE_NAMES].map((name) => [name, FormField])),
);
type ExplorerQuery = Static<typeof ExplorerQuery>;

/**
 * The explorer form's query as the feed parsers expect it: repeated TLD boxes joined with
 * commas and empty fields dropped (an empty box means "no filter", not a bad value).
 */
function formQuery(raw: ExplorerQuery, names: readonly string[]): FeedQueryInput {
  const query: FeedQueryInput = {};
  for (const name of names) {
    const value = raw[name];
    const text = Array.isArray(value) ? value.filter(Boolean).join(',') : value?.trim();
    if (text) query[name] = text;
  }
  return query;
}

/** The page sizes the explorer offers; a link or bookmark with another valid `limit` adds its own. */
const ROW_CHOICES = [25, 50, 100];

/**
 * The "Rows" select as the URL has it: the URL's `limit` (or the feed's default) is the
 * selected option, added to the usual choices when it is another valid page size, so the
 * select never claims 25 rows while the table shows 10.
 */
export function rowsSelect(limit: string | undefined): { options: number[]; selected: number } {
  const asked = limit === undefined ? DEFAULT_LIMIT : Number(limit);
  const valid = Number.isInteger(asked) && asked >= 1 && asked <= MAX_LIMIT;
  const selected = valid ? asked : DEFAULT_LIMIT;
  return { options: [...new Set([...ROW_CHOICES, selected])].sort((a, b) => a - b), selected };
}

const toQueryString = (query: FeedQueryInput) =>
  new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();

async function* csvLines(records: AsyncIterable<FeedRecord> | FeedRecord[]): AsyncGenerator<string> {
  yield `${CSV_HEADER.join(',')}\n`;
  for await (const record of records) yield `${toCsvLine(record)}\n`;
}

/** The feed explorer (same filters as GET /v1/domains), its drops chart and the CSV download. */
export function feedRoutes(app: DashboardApp, sessions: DashboardSessions): void {
  const { accounts, feed, config, database, clock } = app.ctx;

  app.get('/dashboard/feed', { schema: { querystring: ExplorerQuery } }, async (request, reply) => {
    const viewer = await findViewer(request, sessions, accounts);
    if (!viewer) return reply.redirect('/dashboard', 303);
    const filterQuery = formQuery(request.query, FILTER_NAMES);
    const pageQuery = formQuery(request.query, PAGE_NAMES);
    const view = {
      viewer,
      trackedTlds: config.TRACKED_TLDS,
      fields: EXPLORER_FIELDS,
      statuses: FEED_STATUSES,
      sorts: FEED_SORTS,
      form: { ...filterQuery, ...pageQuery },
      rows: rowsSelect(pageQuery.limit),
      selectedTlds: filterQuery.tld?.split(',') ?? [],
      csvRows: viewer.plan.features.bulkExport ? null : CSV_ROWS_WITHOUT_BULK_EXPORT,
      csrfToken: reply.generateCsrf(),
    };
    try {
      const filters = parseFeedFilters(filterQuery, config.TRACKED_TLDS);
      const page = parseFeedPage(pageQuery);
      const [{ records, total }, drops] = await Promise.all([
        feed.list(filters, page),
        dropsPerDay(database, filters, clock.now(), CHART_DAYS),
      ]);
      const pageLink = (offset: number) =>
        `/dashboard/feed?${toQueryString({ ...filterQuery, ...pageQuery, offset: String(offset) })}`;
      const lastOffset = Math.min(MAX_OFFSET, Math.max(0, total - 1));
      return noStore(reply).view('dashboard/feed', {
        ...view,
        records,
        total,
        page,
        previous: page.offset > 0 ? pageLink(Math.max(0, page.offset - page.limit)) : null,
        next: page.offset + page.limit <= lastOffset ? pageLink(page.offset + page.limit) : null,
        csvLink: `/dashboard/feed.csv?${toQueryString(filterQuery)}`,
        filterQuery: toQueryString(filterQuery),
        dropsJson: jsonForScript(drops),
      });
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      const { status, message } = toPublicError(error);
      return noStore(reply.status(status)).view('dashboard/feed', { ...view, error: message, records: [], total: 0 });
    }
  });

  app.get('/dashboard/feed.csv', { schema: { querystring: ExplorerQuery } }, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const filters = parseFeedFilters(formQuery(request.query, FILTER_NAMES), config.TRACKED_TLDS);
    // The plan table decides, as for GET /v1/domains/export: bulk export streams every match;
    // other plans get the first page, newest drops first, as one /v1/domains call would give.
    const records = viewer.plan.features.bulkExport
      ? feed.stream(filters)
      : (await feed.list(filters, { sort: 'dropped_at', limit: CSV_ROWS_WITHOUT_BULK_EXPORT, offset: 0 })).records;
    noStore(reply)
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="dropped-domains-${utcDate(clock.now())}.csv"`)
      .header('X-Export-Scope', viewer.plan.features.bulkExport ? 'all' : `first-${CSV_ROWS_WITHOUT_BULK_EXPORT}`);
    return reply.send(Readable.from(csvLines(records)));
  });
}
