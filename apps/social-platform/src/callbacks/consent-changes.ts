import type { GrantsService } from '../applications/grants-service.ts';
import type { Permission } from '../applications/permissions.ts';
import type { AppEvents } from './app-events.ts';

/**
 * A user allows an app (its consent page, `keys issue`): the grant is recorded, and when it
 * replaces a different one (the app asked for more, the user allowed it) the app gets
 * `app.permissions_changed` with both lists. A first grant is no change: the app learns of it
 * when the user opens it.
 */
export class ConsentChanges {
  constructor(
    private readonly grants: GrantsService,
    private readonly events: AppEvents,
  ) {}

  async allow(appId: number, userId: number, permissions: readonly Permission[]): Promise<void> {
    const previous = await this.grants.permissionsOf(appId, userId);
    await this.grants.grant(appId, userId, permissions);
    const same = previous.length === permissions.length && permissions.every((name) => previous.includes(name));
    if (previous.length === 0 || same) return;
    await this.events.emit(appId, 'app.permissions_changed', {
      app_id: appId,
      user_id: userId,
      permissions: [...permissions],
      previous_permissions: previous,
    });
  }
}
