import {
  type FeedIndexParts,
  type FeedIndexPartsState,
  feedIndexPartsFromState,
  feedIndexPartsState,
} from './feed-index-parts.ts';
import { mapTypedArrayFile, TypedArrayFileError, writeTypedArrayFile } from './typed-array-file.ts';

/**
 * The content kind of a feed index snapshot, with the layout of the parts (typed-array-file.ts
 * refuses a file of another kind, so a snapshot another version of this code wrote is built over,
 * not read wrongly). Bump the layout whenever FeedIndexPartsState changes: 2 since the coarse ranks,
 * the labels without their TLD and the Int8 length (28 Nov); 3 since the times as codes
 * (time-column.ts), the 0/1 columns as bitmaps, the alt-TLD count as Int8 and the label offsets; 4 since the sorts'
 * permutations split in low and high parts (row-order.ts); 5 since the coarse ranks in one byte; 6
 * since the TLD code in one byte when at most 256 TLDs are in the feed.
 */
const SNAPSHOT_KIND = 'feed-index-parts/6';

/** What a snapshot says of the index it holds, beside its parts. */
export interface FeedIndexSnapshotMeta {
  /** The feed version the index was built from. */
  version: number;
  /**
   * Rows dropped before this time (epoch ms) were left out (retention or row ceiling); null: every
   * row is in. FeedIndex.covers reads it, so a mapped index answers exactly the queries it can.
   */
  droppedSince: number | null;
  /** The settings that shaped the content (e.g. retention days, row ceiling), recorded as they were. */
  settings: Record<string, number | string | null>;
}

/**
 * Writes the index's parts with `meta` to `file` (typed-array-file.ts: atomic, every typed array of
 * FeedIndexPartsState, whatever they are, with no code of their own here).
 */
export function writeFeedIndexSnapshot(file: string, parts: FeedIndexParts, meta: FeedIndexSnapshotMeta) {
  return writeTypedArrayFile(file, SNAPSHOT_KIND, meta, feedIndexPartsState(parts));
}

/**
 * The parts and meta of the snapshot at `file`, mapped read-only and shared (nothing copied, one
 * copy per host whatever the number of processes mapping it). Throws a TypedArrayFileError for a
 * file that is not a whole snapshot, and the fs error when it cannot be opened (ENOENT …).
 */
export function mapFeedIndexSnapshot(file: string): { parts: FeedIndexParts; meta: FeedIndexSnapshotMeta } {
  const { meta, tree } = mapTypedArrayFile(file, SNAPSHOT_KIND);
  const snapshot = meta as FeedIndexSnapshotMeta;
  if (
    typeof meta !== 'object' ||
    meta === null ||
    !Number.isSafeInteger(snapshot.version) ||
    !(snapshot.droppedSince === null || Number.isFinite(snapshot.droppedSince))
  ) {
    throw new TypedArrayFileError(file, 'malformed', `${SNAPSHOT_KIND} file: its meta is ${JSON.stringify(meta)}`);
  }
  return { parts: feedIndexPartsFromState(tree as FeedIndexPartsState), meta: snapshot };
}
