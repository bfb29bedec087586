/**
 * The feed guide's parameter table, rendered from the parameters' wire entries (packages/contracts
 * FEED_FILTER_WIRE and FEED_PAGE_WIRE: description, range, error codes). `npm run feed-docs`
 * rewrites the block between the markers in docs/guides/api/feed.md; scripts/test/feed-docs.test.ts
 * fails while the guide differs from the definitions.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  describeFeedParameter,
  FEED_FILTER_PARAMETERS,
  FEED_PAGE_PARAMETERS,
  feedParameterErrorCodes,
} from '@repo/contracts/domain-intel';

export const FEED_GUIDE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/guides/api/feed.md');

// Link reference definitions: Markdown renders them as nothing, on GitHub and in the served guides.
const START = '[//]: # (feed-parameters:start, rendered by npm run feed-docs from packages/contracts feed-query.ts)';
const END = '[//]: # (feed-parameters:end)';

const cell = (text: string) => text.replaceAll('|', '\\|');

/** One row per filter, then the paging parameters: name, description (with its range), error codes. */
export function renderParameterTable(): string {
  const rows = [...FEED_FILTER_PARAMETERS, ...FEED_PAGE_PARAMETERS].map(
    (parameter) =>
      `| \`${parameter}\` | ${cell(describeFeedParameter(parameter))} | ${feedParameterErrorCodes(parameter)
        .map((code) => `\`${code}\``)
        .join(', ')} |`,
  );
  return ['| Parameter | Values | Error codes |', '|---|---|---|', ...rows].join('\n');
}

/** The guide with its block between the markers replaced by the rendered table. */
export function withParameterTable(guide: string): string {
  const start = guide.indexOf(START);
  const end = guide.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${FEED_GUIDE} lacks the lines ${START} … ${END}`);
  return `${guide.slice(0, start)}${START}\n\n${renderParameterTable()}\n\n${guide.slice(end)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  writeFileSync(FEED_GUIDE, withParameterTable(readFileSync(FEED_GUIDE, 'utf8')));
}
