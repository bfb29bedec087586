import type { Clock } from '@repo/server-kit';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { type PageRequest, type PageResult, pageOf } from '../db/paging.ts';
import { isRowId } from '../db/row-id.ts';
import type { ApplicationStatus, ApplicationTable, DB } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { invalidInput } from '../users/users-service.ts';

export type Application = Selectable<ApplicationTable>;

const newApplicationSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  canvasUrl: z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' })),
  ownerId: z.number().int().positive(),
});

export type NewApplication = z.input<typeof newApplicationSchema>;

export const appNotFound = (appId: number) =>
  appError('app_not_found', `There is no application with APP ID ${appId}.`);

/** Third-party applications shown in the platform's canvas; the row id is the APP ID. */
export class ApplicationsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async create(input: NewApplication): Promise<Application> {
    const parsed = newApplicationSchema.safeParse(input);
    if (!parsed.success) throw invalidInput('invalid_application', parsed.error);
    return this.db
      .insertInto('applications')
      .values({
        name: parsed.data.name,
        canvas_url: parsed.data.canvasUrl,
        owner_id: parsed.data.ownerId,
        status: 'active',
        created_at: this.clock.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
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

  /** Active applications, by name. */
  async list(page: PageRequest): Promise<PageResult<Application>> {
    const base = this.db.selectFrom('applications').where('status', '=', 'active');
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
