import { type Static, Type } from 'typebox';

/** One daily zone snapshot held (/v1/snapshots). */
export const SnapshotInfo = Type.Object({
  tld: Type.String(),
  date: Type.String({ format: 'date' }),
  names: Type.Integer({ description: 'Delegated second-level names in the zone that day' }),
  bytes: Type.Integer({ description: 'Compressed size as stored' }),
  imported_at: Type.String({ format: 'date-time' }),
  download: Type.String({ description: 'Path of the download' }),
});
export type SnapshotInfo = Static<typeof SnapshotInfo>;
