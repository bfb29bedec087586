import {
  FeedFilterError,
  type FeedFilters,
  type FeedPage,
  type FeedQueryInput,
  parseFeedFilters as parseFilters,
  parseFeedPage as parsePage,
} from '@repo/feed-index';
import { appError } from '../error-catalogue.ts';

/** Bad feed input as the catalogued error (the package names the code; the catalogue gives its status and action). */
function catalogued<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof FeedFilterError) throw appError(error.code, error.message, error.options);
    throw error;
  }
}

/** The feed's filters from query parameters (@repo/feed-index filters.ts), bad input as a catalogued 400. */
export const parseFeedFilters = (query: FeedQueryInput, trackedTlds: readonly string[]): FeedFilters =>
  catalogued(() => parseFilters(query, trackedTlds));

/** Sort and paging from query parameters, bad input as a catalogued 400. */
export const parseFeedPage = (query: FeedQueryInput): FeedPage => catalogued(() => parsePage(query));
