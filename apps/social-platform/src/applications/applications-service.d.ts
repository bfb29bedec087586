import { AppError, type Clock } from '@repo/server-kit';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { type PageRequest, type PageResult } from '../db/paging.ts';
import type { ApplicationStatus, ApplicationTable, DB } from '../db/schema.ts';
export type Application = Selectable<ApplicationTable>;
declare const newApplicationSchema: z.ZodObject<
  {
    name: z.ZodString;
    canvasUrl: z.ZodPipe<z.ZodString, z.ZodURL>;
    ownerId: z.ZodNumber;
  },
  z.core.$strip
>;
export type NewApplication = z.input<typeof newApplicationSchema>;
export declare const appNotFound: (appId: number) => AppError;
/** Third-party applications shown in the platform's canvas; the row id is the APP ID. */
export declare class ApplicationsService {
  private readonly db;
  private readonly clock;
  constructor(db: Kysely<DB>, clock: Clock);
  create(input: NewApplication): Promise<Application>;
  findById(appId: number): Promise<Application | undefined>;
  getById(appId: number): Promise<Application>;
  /** The first application with this exact name (the demo data finds its sample app by name). */
  findByName(name: string): Promise<Application | undefined>;
  /** Active applications, by name. */
  list(page: PageRequest): Promise<PageResult<Application>>;
  listByOwner(ownerId: number): Promise<Application[]>;
  setStatus(appId: number, status: ApplicationStatus): Promise<void>;
  setCanvasUrl(appId: number, canvasUrl: string): Promise<void>;
}
