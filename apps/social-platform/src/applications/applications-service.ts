import { type Clock, newSecret } from '@repo/server-kit';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { type PageRequest, type PageResult, pageOf } from '../db/paging.ts';
import { isRowId } from '../db/row-id.ts';
import type { ApplicationStatus, ApplicationTable, DB } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { invalidInput } from '../users/users-service.ts';
import { decodePermissions, encodePermissions, isPermission, type Permission } from './permissions.ts';
import type { SecretBox } from './secret-box.ts';

export type Application = Selectable<ApplicationTable>;

const httpUrl = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .pipe(z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }));

/** What a developer edits in the console. */
const applicationFieldsSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  canvasUrl: httpUrl,
  description: z.string().trim().max(1000, 'must be at most 1000 characters').default(''),
  /** Empty: the platform draws the app's initial. */
  iconUrl: z.union([z.literal(''), httpUrl]).default(''),
  permissions: z
    .array(z.string())
    .refine((names) => names.every(isPermission), 'must name known permissions')
    .default(['basic_profile']),
});

const newApplicationSchema = applicationFieldsSchema.extend({
  ownerId: z.number().int().positive(),
  /** New apps start in development mode; the demo's sample app is published at once. */
  published: z.boolean().default(false),
  /** token.php refuses this app's exchanges without a valid `sig`. */
  requireSignedExchange: z.boolean().default(false),
});

/** An app secret: `sps_` + 32 random bytes in base64url. Used as it is (its UTF-8 bytes) as the HMAC key. */
const SECRET_PREFIX = 'sps_';

/** A new app with its secret: the one time the secret is shown. */
export type CreatedApplication = Application & { secret: string };

export type ApplicationFields = z.input<typeof applicationFieldsSchema>;
export type NewApplication = z.input<typeof newApplicationSchema>;

/** An app's permissions, decoded. */
export const permissionsOf = (app: Pick<Application, 'permissions'>): Permission[] =>
  decodePermissions(app.permissions);

export const appNotFound = (appId: number) =>
  appError('app_not_found', `There is no application with APP ID ${appId}.`);

/** Third-party applications shown in the platform's canvas; the row id is the APP ID. */
export class ApplicationsService {
  /** Opened secrets by APP ID and sealed text: token.php opens its app's secret once per process, not per exchange. */
  readonly #opened = new Map<string, string>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
  ) {}

  /** Registers an app with a new secret, returned here once (only its sealed form is kept). */
  async create(input: NewApplication): Promise<CreatedApplication> {
    const parsed = newApplicationSchema.safeParse(input);
    if (!parsed.success) throw invalidInput('invalid_application', parsed.error);
    const secret = newSecret(SECRET_PREFIX);
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('applications')
        .values({
          name: parsed.data.name,
          canvas_url: parsed.data.canvasUrl,
          owner_id: parsed.data.ownerId,
          status: 'active',
          created_at: this.clock.now(),
          description: parsed.data.description,
          icon_url: parsed.data.iconUrl || null,
          permissions: encodePermissions(parsed.data.permissions as Permission[]),
          published: parsed.data.published ? 1 : 0,
          require_signed_exchange: parsed.data.requireSignedExchange ? 1 : 0,
          secret_sealed: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Sealed with the APP ID as additional data, so the row exists before its secret does.
      const created = await trx
        .updateTable('applications')
        .set({ secret_sealed: this.secrets.seal(inserted.id, secret) })
        .where('id', '=', inserted.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ...created, secret };
    });
  }

  /** The app's secret, opened (the platform signs and checks with it; it is shown to nobody). */
  secretOf(app: Pick<Application, 'id' | 'secret_sealed'>): string {
    if (app.secret_sealed === null) throw new Error(`APP ID ${app.id} has no secret yet.`);
    // By APP ID and sealed text: a sealed secret opens only for the app it was sealed for.
    const cacheKey = `${app.id}:${app.secret_sealed}`;
    let secret = this.#opened.get(cacheKey);
    if (secret === undefined) {
      secret = this.secrets.open(app.id, app.secret_sealed);
      if (this.#opened.size >= 10_000) this.#opened.clear();
      this.#opened.set(cacheKey, secret);
    }
    return secret;
  }

  /** A new secret for the app, returned once; the old one stops working at once. */
  async rotateSecret(appId: number): Promise<string> {
    const secret = newSecret(SECRET_PREFIX);
    const result = await this.db
      .updateTable('applications')
      .set({ secret_sealed: this.secrets.seal(appId, secret) })
      .where('id', '=', appId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw appNotFound(appId);
    return secret;
  }

  /**
   * Gives a secret to each app registered before secrets existed (the context calls it at start).
   * Nobody has seen it: their developers rotate it in the console to get one they can use.
   */
  async sealMissingSecrets(): Promise<number> {
    const missing = await this.db.selectFrom('applications').select('id').where('secret_sealed', 'is', null).execute();
    for (const { id } of missing) {
      await this.db
        .updateTable('applications')
        .set({ secret_sealed: this.secrets.seal(id, newSecret(SECRET_PREFIX)) })
        .where('id', '=', id)
        .where('secret_sealed', 'is', null)
        .execute();
    }
    return missing.length;
  }

  /** Whether token.php insists on `sig` for this app. */
  async setSignedExchangeRequired(appId: number, required: boolean): Promise<void> {
    const result = await this.db
      .updateTable('applications')
      .set({ require_signed_exchange: required ? 1 : 0 })
      .where('id', '=', appId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw appNotFound(appId);
  }

  /** Where the app's events go (null: nowhere); the callbacks service checks the address first. */
  async setCallbackUrl(appId: number, callbackUrl: string | null): Promise<void> {
    const result = await this.db
      .updateTable('applications')
      .set({ callback_url: callbackUrl })
      .where('id', '=', appId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw appNotFound(appId);
  }

  async findById(appId: number): Promise<Application | undefined> {
    if (!isRowId(appId)) return undefined;
    return this.db.selectFrom('applications').selectAll().where('id', '=', appId).executeTakeFirst();
  }

  async getById(appId: number): Promise<Application> {
    const app = await this.findById(appId);
    if (!app) throw appNotFound(appId);
    return app;
  }

  /** The first application with this exact name (the demo data finds its sample app by name). */
  findByName(name: string): Promise<Application | undefined> {
    return this.db.selectFrom('applications').selectAll().where('name', '=', name).orderBy('id').executeTakeFirst();
  }

  /** Changes what the developer edits in the console; permissions added mean users are asked again. */
  async update(appId: number, fields: ApplicationFields): Promise<Application> {
    const parsed = applicationFieldsSchema.safeParse(fields);
    if (!parsed.success) throw invalidInput('invalid_application', parsed.error);
    const updated = await this.db
      .updateTable('applications')
      .set({
        name: parsed.data.name,
        canvas_url: parsed.data.canvasUrl,
        description: parsed.data.description,
        icon_url: parsed.data.iconUrl || null,
        permissions: encodePermissions(parsed.data.permissions as Permission[]),
      })
      .where('id', '=', appId)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw appNotFound(appId);
    return updated;
  }

  /** Deletes an app with its keys, tokens, grants, testers and usage (foreign keys cascade). */
  async delete(appId: number): Promise<void> {
    const result = await this.db.deleteFrom('applications').where('id', '=', appId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw appNotFound(appId);
  }

  /** Puts an app in the directory for everyone (true) or back in development mode. */
  async setPublished(appId: number, published: boolean): Promise<void> {
    const result = await this.db
      .updateTable('applications')
      .set({ published: published ? 1 : 0 })
      .where('id', '=', appId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw appNotFound(appId);
  }

  async addTester(appId: number, userId: number): Promise<void> {
    await this.db
      .insertInto('app_testers')
      .values({ app_id: appId, user_id: userId })
      .onConflict((conflict) => conflict.columns(['app_id', 'user_id']).doNothing())
      .execute();
  }

  async removeTester(appId: number, userId: number): Promise<void> {
    await this.db.deleteFrom('app_testers').where('app_id', '=', appId).where('user_id', '=', userId).execute();
  }

  /** The testers of an app: their ids, user names and full names. */
  testers(appId: number) {
    return this.db
      .selectFrom('app_testers')
      .innerJoin('users', 'users.id', 'app_testers.user_id')
      .select(['users.id', 'users.user_name', 'users.full_name'])
      .where('app_testers.app_id', '=', appId)
      .orderBy('users.user_name')
      .execute();
  }

  /**
   * Whether `userId` may open the app: anyone once it is published, and before that only its
   * developer and the testers they named. A disabled app opens for no one.
   */
  async canOpen(app: Application, userId: number): Promise<boolean> {
    if (app.status !== 'active') return false;
    if (app.published === 1 || app.owner_id === userId) return true;
    const tester = await this.db
      .selectFrom('app_testers')
      .select('user_id')
      .where('app_id', '=', app.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return tester !== undefined;
  }

  /** Active, published applications, by name: the directory. */
  async list(page: PageRequest): Promise<PageResult<Application>> {
    const base = this.db.selectFrom('applications').where('status', '=', 'active').where('published', '=', 1);
    return pageOf(base, page, (query) => query.selectAll().orderBy('name').orderBy('id'));
  }

  listByOwner(ownerId: number): Promise<Application[]> {
    return this.db.selectFrom('applications').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
  }

  async setStatus(appId: number, status: ApplicationStatus): Promise<void> {
    const result = await this.db.updateTable('applications').set({ status }).where('id', '=', appId).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw appNotFound(appId);
  }

  async setCanvasUrl(appId: number, canvasUrl: string): Promise<void> {
    const parsed = newApplicationSchema.shape.canvasUrl.safeParse(canvasUrl);
    if (!parsed.success) throw invalidInput('invalid_application', parsed.error);
    const result = await this.db
      .updateTable('applications')
      .set({ canvas_url: parsed.data })
      .where('id', '=', appId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw appNotFound(appId);
  }
}
