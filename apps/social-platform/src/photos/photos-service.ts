import type { Readable } from 'node:stream';
import type { Clock } from '@repo/server-kit';
import type { Kysely, Selectable } from 'kysely';
import PQueue from 'p-queue';
import { type PageRequest, type PageResult, pageOf } from '../db/paging.ts';
import { RowCache } from '../db/row-cache.ts';
import { isRowId } from '../db/row-id.ts';
import type { DB, PhotoFileTable, PhotoKind, PhotoTable, Visibility } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { type ImageVariant, type RenderedImage, renderVariants } from '../media/image-pipeline.ts';
import { readBounded, uploadTooLarge } from '../media/read-bounded.ts';
import type { MediaUrlSigner } from '../media/signed-urls.ts';
import { type MediaStorage, newStoragePrefix } from '../media/storage.ts';
import type { FriendsService } from '../social/friends-service.ts';
import type { UsersService } from '../users/users-service.ts';
import { PHOTO_VARIANTS, PROFILE_VARIANTS } from './sizes.ts';

export interface UploadLimits {
  maxBytes: number;
  maxPixels: number;
  /** Uploads resized at once; the rest queue. */
  concurrency: number;
}

export interface StoredFile {
  /** Public photos: a permanent URL. Others: a signed URL that expires (see MediaUrlSigner). */
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

export const VISIBILITIES: readonly Visibility[] = ['public', 'friends', 'private'];
const MAX_NAME_LENGTH = 200;

/**
 * Album photos and profile pictures: one upload pipeline (type check, limits, seven
 * sizes, all-or-nothing storage) used by photo.addPhoto and by the web pages alike.
 */
export class PhotosService {
  private readonly renders: PQueue;
  /**
   * The files of public profile pictures user.getUser names, by photo id, frozen. Their URLs are
   * permanent (no signature, no expiry), so a kept one is the same text a read would give; this
   * service drops them whenever it moves or deletes files, and another process's change shows
   * within the cache's time, like the user row that names the picture (USER_CACHE_TTL_MS).
   */
  readonly #publicPictures: RowCache<number, Readonly<Record<string, StoredFile>>>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly storage: MediaStorage,
    private readonly signer: MediaUrlSigner,
    private readonly friends: FriendsService,
    /** The owner of `users`: a profile picture is set and cleared through it. */
    private readonly users: Pick<UsersService, 'setPicturePhoto' | 'clearPicturePhoto'>,
    private readonly clock: Clock,
    readonly limits: UploadLimits,
    pictureCacheTtlMs = 0,
  ) {
    this.renders = new PQueue({ concurrency: limits.concurrency });
    this.#publicPictures = new RowCache(pictureCacheTtlMs, 10_000);
  }

  addPhoto(input: NewPhoto): Promise<Photo> {
    return this.store('photo', PHOTO_VARIANTS, input);
  }

  /** Stores a new profile picture and makes it the user's; the previous one is deleted. */
  async setProfilePicture(userId: number, data: Buffer | Readable): Promise<Photo> {
    const photo = await this.store('profile', PROFILE_VARIANTS, { ownerId: userId, name: 'Profile picture', data });
    const previous = await this.db
      .selectFrom('users')
      .select('picture_photo_id')
      .where('id', '=', userId)
      .executeTakeFirst();
    await this.users.setPicturePhoto(userId, photo.id);
    if (previous?.picture_photo_id) await this.deleteById(previous.picture_photo_id);
    return photo;
  }

  /** Album photos of `ownerId` that `viewerId` may see, newest first. */
  async list(ownerId: number, viewerId: number, page: PageRequest): Promise<PageResult<Photo>> {
    const visible = await this.visibleTo(ownerId, viewerId);
    const base = this.db
      .selectFrom('photos')
      .where('owner_id', '=', ownerId)
      .where('kind', '=', 'photo')
      .where('visibility', 'in', visible);
    const { items, total } = await pageOf(base, page, (query) => query.selectAll().orderBy('id', 'desc'));
    return { items: await this.withFiles(items), total };
  }

  async findById(photoId: number): Promise<Photo | undefined> {
    if (!isRowId(photoId)) return undefined;
    const row = await this.db.selectFrom('photos').selectAll().where('id', '=', photoId).executeTakeFirst();
    return row ? (await this.withFiles([row]))[0] : undefined;
  }

  /** The files of several photos at once (profile pictures of a friends list). */
  async filesOf(photoIds: number[]): Promise<Map<number, Record<string, StoredFile>>> {
    const files = new Map<number, Record<string, StoredFile>>();
    if (photoIds.length === 0) return files;
    const rows = await this.db
      .selectFrom('photo_files')
      .innerJoin('photos', 'photos.id', 'photo_files.photo_id')
      .selectAll('photo_files')
      .select('photos.visibility')
      .where('photo_files.photo_id', 'in', photoIds)
      .execute();
    for (const row of rows) {
      const byName = files.get(row.photo_id) ?? {};
      byName[row.size] = this.toStoredFile(row, row.visibility);
      files.set(row.photo_id, byName);
    }
    return files;
  }

  /** A profile picture's files while they are kept (public pictures only); undefined: ask `pictureFiles`. */
  keptPictureFiles(photoId: number): Readonly<Record<string, StoredFile>> | undefined {
    return this.#publicPictures.fresh(photoId);
  }

  /**
   * A profile picture's files by size, kept for the next calls when the picture is public (a
   * friends-only one's URLs are signed for the viewer's moment and read afresh); none: empty.
   */
  async pictureFiles(photoId: number): Promise<Readonly<Record<string, StoredFile>>> {
    const kept = await this.#publicPictures.get(photoId, this.#readPublicPicture);
    return kept ?? (await this.filesOf([photoId])).get(photoId) ?? {};
  }

  readonly #readPublicPicture = async (photoId: number) => {
    const rows = await this.db
      .selectFrom('photo_files')
      .innerJoin('photos', 'photos.id', 'photo_files.photo_id')
      .selectAll('photo_files')
      .select('photos.visibility')
      .where('photo_files.photo_id', '=', photoId)
      .execute();
    if (rows.length === 0 || rows.some((row) => row.visibility !== 'public')) return undefined;
    const byName: Record<string, StoredFile> = {};
    for (const row of rows) byName[row.size] = Object.freeze(this.toStoredFile(row, row.visibility));
    return Object.freeze(byName);
  };

  /** Who may see the file stored under `storageKey`, and its type; undefined for no such file. */
  async fileByKey(
    storageKey: string,
  ): Promise<{ visibility: Visibility; contentType: string; ownerId: number } | undefined> {
    const row = await this.db
      .selectFrom('photo_files')
      .innerJoin('photos', 'photos.id', 'photo_files.photo_id')
      .select(['photos.visibility', 'photos.owner_id', 'photo_files.content_type'])
      .where('photo_files.storage_key', '=', storageKey)
      .executeTakeFirst();
    return row ? { visibility: row.visibility, contentType: row.content_type, ownerId: row.owner_id } : undefined;
  }

  /**
   * Changes who may see a photo of `ownerId`. A photo that stops being public moves to new,
   * unguessable keys: its old permanent URLs may sit in caches for a year, and now lead nowhere.
   */
  async setVisibility(ownerId: number, photoId: number, visibility: Visibility): Promise<void> {
    if (!VISIBILITIES.includes(visibility)) {
      throw appError('invalid_visibility', 'Visibility must be public, friends or private.');
    }
    const photo = isRowId(photoId)
      ? await this.db
          .selectFrom('photos')
          .select(['id', 'visibility'])
          .where('id', '=', photoId)
          .where('owner_id', '=', ownerId)
          .where('kind', '=', 'photo')
          .executeTakeFirst()
      : undefined;
    if (!photo) throw photoNotFound();
    if (photo.visibility === visibility) return;
    if (photo.visibility !== 'public') {
      await this.db.updateTable('photos').set({ visibility }).where('id', '=', photo.id).execute();
      return;
    }
    const files = await this.db
      .selectFrom('photo_files')
      .select(['size', 'storage_key'])
      .where('photo_id', '=', photo.id)
      .execute();
    const prefix = newStoragePrefix();
    const moves = files.map((file) => ({
      ...file,
      to: `${prefix}/${file.storage_key.slice(file.storage_key.lastIndexOf('/') + 1)}`,
    }));
    const copies = await Promise.allSettled(moves.map((move) => this.storage.copy(move.storage_key, move.to)));
    const failure = copies.find((result) => result.status === 'rejected');
    try {
      if (failure) throw failure.reason;
      await this.db.transaction().execute(async (trx) => {
        await trx.updateTable('photos').set({ visibility }).where('id', '=', photo.id).execute();
        for (const move of moves) {
          await trx
            .updateTable('photo_files')
            .set({ storage_key: move.to })
            .where('photo_id', '=', photo.id)
            .where('size', '=', move.size)
            .execute();
        }
      });
      this.#publicPictures.clear();
    } catch (error) {
      await this.deleteKeys(moves.map((move) => move.to));
      throw error;
    }
    await this.deleteKeys(files.map((file) => file.storage_key));
  }

  /** Deletes a photo of `ownerId` and its files. */
  async delete(ownerId: number, photoId: number): Promise<void> {
    if (!isRowId(photoId)) throw photoNotFound();
    const photo = await this.db
      .selectFrom('photos')
      .select('id')
      .where('id', '=', photoId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    if (!photo) throw photoNotFound();
    await this.deleteById(photo.id);
  }

  /** The visibilities of `ownerId`'s photos and friends list that `viewerId` may see. */
  async visibleTo(ownerId: number, viewerId: number): Promise<Visibility[]> {
    if (ownerId === viewerId) return ['public', 'friends', 'private'];
    return (await this.friends.isFriend(ownerId, viewerId)) ? ['public', 'friends'] : ['public'];
  }

  private async store(kind: PhotoKind, variants: readonly ImageVariant[], input: NewPhoto): Promise<Photo> {
    const name = (input.name ?? '').trim().slice(0, MAX_NAME_LENGTH) || 'Photo';
    const visibility = input.visibility ?? 'public';
    if (!VISIBILITIES.includes(visibility)) {
      throw appError('invalid_visibility', 'Visibility must be public, friends or private.');
    }
    const data = Buffer.isBuffer(input.data) ? input.data : await readBounded(input.data, this.limits.maxBytes);
    if (data.length > this.limits.maxBytes) throw uploadTooLarge(this.limits.maxBytes);
    const rendered = await this.renders.add(() => renderVariants(data, variants, { maxPixels: this.limits.maxPixels }));
    const keys = await this.writeAll(rendered);
    try {
      const createdAt = this.clock.now();
      const photo = await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('photos')
          .values({ owner_id: input.ownerId, kind, name, visibility, created_at: createdAt })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('photo_files')
          .values(
            rendered.map((image, index) => ({
              photo_id: row.id,
              size: image.name,
              storage_key: keys[index]!,
              content_type: image.contentType,
              width: image.width,
              height: image.height,
              bytes: image.data.length,
            })),
          )
          .execute();
        return row;
      });
      return (await this.withFiles([photo]))[0]!;
    } catch (error) {
      await this.deleteKeys(keys);
      throw error;
    }
  }

  /** Writes every rendered file or, if one fails, none (those written are removed). */
  private async writeAll(rendered: RenderedImage[]): Promise<string[]> {
    const prefix = newStoragePrefix();
    const keys = rendered.map((image) => `${prefix}/${image.name}.${image.extension}`);
    const results = await Promise.allSettled(
      rendered.map((image, index) => this.storage.put(keys[index]!, image.data, image.contentType)),
    );
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) {
      await this.deleteKeys(keys);
      throw failure.reason;
    }
    return keys;
  }

  private async deleteKeys(keys: string[]): Promise<void> {
    await Promise.allSettled(keys.map((key) => this.storage.delete(key)));
  }

  private async deleteById(photoId: number): Promise<void> {
    const files = await this.db
      .selectFrom('photo_files')
      .select('storage_key')
      .where('photo_id', '=', photoId)
      .execute();
    await this.db.transaction().execute(async (trx) => {
      await this.users.clearPicturePhoto(photoId, trx);
      await trx.deleteFrom('photo_files').where('photo_id', '=', photoId).execute();
      await trx.deleteFrom('photos').where('id', '=', photoId).execute();
    });
    this.#publicPictures.clear();
    await this.deleteKeys(files.map((file) => file.storage_key));
  }

  private async withFiles(rows: Selectable<PhotoTable>[]): Promise<Photo[]> {
    const files = await this.filesOf(rows.map((row) => row.id));
    return rows.map((row) => ({ ...row, files: files.get(row.id) ?? {} }));
  }

  private toStoredFile(row: Selectable<PhotoFileTable>, visibility: Visibility): StoredFile {
    const url = this.storage.url(row.storage_key);
    return {
      url: visibility === 'public' ? url : `${url}?${this.signer.sign(row.storage_key)}`,
      width: row.width,
      height: row.height,
      contentType: row.content_type,
      bytes: row.bytes,
    };
  }
}

const photoNotFound = () => appError('photo_not_found', 'There is no such photo.');
