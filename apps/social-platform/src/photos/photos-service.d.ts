import type { Readable } from 'node:stream';
import { type Clock } from '@repo/server-kit';
import type { Kysely, Selectable } from 'kysely';
import { type PageRequest, type PageResult } from '../db/paging.ts';
import type { DB, PhotoTable, Visibility } from '../db/schema.ts';
import { type MediaStorage } from '../media/storage.ts';
import type { FriendsService } from '../social/friends-service.ts';
export interface UploadLimits {
  maxBytes: number;
  maxPixels: number;
  /** Uploads resized at once; the rest queue. */
  concurrency: number;
}
export interface StoredFile {
  url: string;
  width: number;
  height: number;
  contentType: string;
  bytes: number;
}
export interface Photo extends Selectable<PhotoTable> {
  /** By size name: `original`, `75px` … (profile pictures: `50px`, `50px_square`, `120px`). */
  files: Record<string, StoredFile>;
}
export interface NewPhoto {
  ownerId: number;
  /** Shown as the photo's title; defaults to "Photo". */
  name?: string | undefined;
  data: Buffer | Readable;
  visibility?: Visibility;
}
export declare const VISIBILITIES: readonly Visibility[];
/**
 * Album photos and profile pictures: one upload pipeline (type check, limits, seven
 * sizes, all-or-nothing storage) used by photo.addPhoto and by the web pages alike.
 */
export declare class PhotosService {
  private readonly db;
  private readonly storage;
  private readonly friends;
  private readonly clock;
  readonly limits: UploadLimits;
  private readonly renders;
  constructor(db: Kysely<DB>, storage: MediaStorage, friends: FriendsService, clock: Clock, limits: UploadLimits);
  addPhoto(input: NewPhoto): Promise<Photo>;
  /** Stores a new profile picture and makes it the user's; the previous one is deleted. */
  setProfilePicture(userId: number, data: Buffer | Readable): Promise<Photo>;
  /** Album photos of `ownerId` that `viewerId` may see, newest first. */
  list(ownerId: number, viewerId: number, page: PageRequest): Promise<PageResult<Photo>>;
  findById(photoId: number): Promise<Photo | undefined>;
  /** The files of several photos at once (profile pictures of a friends list). */
  filesOf(photoIds: number[]): Promise<Map<number, Record<string, StoredFile>>>;
  setVisibility(ownerId: number, photoId: number, visibility: Visibility): Promise<void>;
  /** Deletes a photo of `ownerId` and its files. */
  delete(ownerId: number, photoId: number): Promise<void>;
  /** The visibilities of `ownerId`'s photos and friends list that `viewerId` may see. */
  visibleTo(ownerId: number, viewerId: number): Promise<Visibility[]>;
  private store;
  /** Writes every rendered file or, if one fails, none (those written are removed). */
  private writeAll;
  private deleteKeys;
  private deleteById;
  private withFiles;
  private toStoredFile;
}
