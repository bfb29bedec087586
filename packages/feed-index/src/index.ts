// The feed's read side as the app sees it: the index, its columns and build, the filters.
// Internals (bit slices, label grams, radix sort) are reached by path (`@repo/feed-index/<file>.ts`) only by tests and benchmarks.
export { buildFeedIndexPartsInWorker, type FeedBuildOptions } from './feed-build-client.ts';
export { bitmapFor, FeedClusters } from './feed-clusters.ts';
export { FeedColumnChunks } from './feed-column-chunks.ts';
export { FEED_COLUMN_NAMES, type FeedColumnRow, FeedColumns } from './feed-columns.ts';
export { FeedIndex, type FeedIndexOptions } from './feed-index.ts';
export type { FeedIndexSnapshotMeta } from './feed-index-snapshot.ts';
export { compileFeedMatcher } from './feed-matcher.ts';
export {
  ANY_STATUSES,
  FEED_FILTERS,
  type FeedBounds,
  FeedFilterError,
  type FeedFilterErrorCode,
  type FeedFilterName,
  type FeedFilters,
  type FeedPage,
  type FeedQueryInput,
  type FeedSqlColumn,
  feedBounds,
  feedSqlPredicates,
  parseFeedFilters,
  parseFeedPage,
  type SqlPredicate,
  YEAR_MS,
} from './filters.ts';
export { TypedArrayFileError, type TypedArrayFileProblem } from './typed-array-file.ts';
