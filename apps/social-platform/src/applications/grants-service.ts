import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { decodePermissions, encodePermissions, type Permission } from './permissions.ts';

/** An app a user allowed, as their settings list it. */
export interface GrantedApp {
  appId: number;
  name: string;
  iconUrl: string | null;
  permissions: Permission[];
  grantedAt: number;
}

/**
 * The permissions each user granted each app (table `app_grants`). A grant is written when
 * the user presses Allow on the consent page, and removed when they remove the app.
 */
export class GrantsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** Records that `userId` allowed `permissions` to `appId` (replacing an earlier grant). */
  async grant(appId: number, userId: number, permissions: readonly Permission[]): Promise<void> {
    const values = { permissions: encodePermissions(permissions), granted_at: this.clock.now() };
    await this.db
      .insertInto('app_grants')
      .values({ app_id: appId, user_id: userId, ...values })
      .onConflict((conflict) => conflict.columns(['app_id', 'user_id']).doUpdateSet(values))
      .execute();
  }

  /** What `userId` granted `appId`; none when they never allowed it or removed it. */
  async permissionsOf(appId: number, userId: number): Promise<Permission[]> {
    const row = await this.db
      .selectFrom('app_grants')
      .select('permissions')
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return decodePermissions(row?.permissions);
  }

  /** The apps `userId` allowed, most recent first. */
  async listForUser(userId: number): Promise<GrantedApp[]> {
    const rows = await this.db
      .selectFrom('app_grants')
      .innerJoin('applications', 'applications.id', 'app_grants.app_id')
      .select([
        'applications.id',
        'applications.name',
        'applications.icon_url',
        'app_grants.permissions',
        'app_grants.granted_at',
      ])
      .where('app_grants.user_id', '=', userId)
      .orderBy('app_grants.granted_at', 'desc')
      .orderBy('applications.id')
      .execute();
    return rows.map((row) => ({
      appId: row.id,
      name: row.name,
      iconUrl: row.icon_url,
      permissions: decodePermissions(row.permissions),
      grantedAt: row.granted_at,
    }));
  }

  /** Forgets the grant; returns whether there was one. The caller revokes the app's tokens. */
  async remove(appId: number, userId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('app_grants')
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
