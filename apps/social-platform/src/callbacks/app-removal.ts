import type { Clock } from '@repo/server-kit';
import type { AppAuthService } from '../auth/app-auth-service.ts';
import type { AppEvents } from './app-events.ts';
import type { DataDeletion, DataDeletionRequest } from './data-deletion.ts';

/**
 * A user removes an app (their settings; test users' removal calls this too): the grant goes,
 * every token they gave it is revoked, the app gets `app.deauthorized`, and when they ask for it,
 * a data deletion request (`user.data_deletion_requested`).
 */
export class AppRemoval {
  constructor(
    private readonly clock: Clock,
    private readonly appAuth: AppAuthService,
    private readonly events: AppEvents,
    private readonly deletion: DataDeletion,
  ) {}

  async remove(
    appId: number,
    userId: number,
    options: { deleteData?: boolean } = {},
  ): Promise<{ removed: boolean; deletionRequest?: DataDeletionRequest }> {
    const removed = await this.appAuth.removeAppForUser(appId, userId);
    // Only a user who had allowed the app is news to it; a second press of Remove is not.
    if (removed) {
      await this.events.emit(appId, 'app.deauthorized', {
        app_id: appId,
        user_id: userId,
        deauthorized_at: new Date(this.clock.now()).toISOString(),
      });
    }
    if (!removed || !options.deleteData) return { removed };
    return { removed, deletionRequest: await this.deletion.request(appId, userId) };
  }
}
