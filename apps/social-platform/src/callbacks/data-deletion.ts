import { randomBytes } from 'node:crypto';
import type { Clock } from '@repo/server-kit';
import type { Kysely, Selectable } from 'kysely';
import type { ApplicationsService } from '../applications/applications-service.ts';
import { signatureMatches, signedText } from '../applications/param-signature.ts';
import type { DataDeletionRequestTable, DataDeletionStatus, DB } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import type { AppEvents } from './app-events.ts';

export type DataDeletionRequest = Selectable<DataDeletionRequestTable>;

/** A report's `ts` may be this far from the platform's clock (seconds). */
export const REPORT_TOLERANCE_SECONDS = 300;

/** What an app may report: work started, or done. */
const REPORTABLE: readonly DataDeletionStatus[] = ['in_progress', 'completed'];

/** The status URL of a request: where the user and the app look, and where the app reports. */
export const statusPath = (requestId: string) => `/apps/data-deletion/${requestId}`;

/**
 * Users' requests that an app delete the data it holds about them, owner of
 * `data_deletion_requests`. The app gets `user.data_deletion_requested` with the status URL and
 * reports there (`in_progress`, `completed`), signed with its secret; the user sees the status.
 */
export class DataDeletion {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly apps: ApplicationsService,
    private readonly events: AppEvents,
    private readonly publicUrl: string,
  ) {}

  async request(appId: number, userId: number): Promise<DataDeletionRequest> {
    const now = this.clock.now();
    const request = await this.db
      .insertInto('data_deletion_requests')
      .values({
        id: `del_${randomBytes(16).toString('base64url')}`,
        app_id: appId,
        user_id: userId,
        status: 'requested',
        requested_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.events.emit(appId, 'user.data_deletion_requested', {
      app_id: appId,
      user_id: userId,
      request_id: request.id,
      status_url: `${this.publicUrl}${statusPath(request.id)}`,
      requested_at: new Date(now).toISOString(),
    });
    return request;
  }

  async get(requestId: string): Promise<DataDeletionRequest> {
    const request = await this.db
      .selectFrom('data_deletion_requests')
      .selectAll()
      .where('id', '=', requestId)
      .executeTakeFirst();
    if (!request) throw notFound();
    return request;
  }

  /**
   * The app's report: `status` and `ts` (Unix seconds) signed as `request_id=…&status=…&ts=…`
   * (param-signature.ts `signedText`). A status never goes back (completed stays completed).
   */
  async report(
    requestId: string,
    fields: { status?: string; ts?: string; sign?: string },
  ): Promise<DataDeletionRequest> {
    const request = await this.get(requestId);
    const { status, ts, sign } = fields;
    if (!status || !REPORTABLE.includes(status as DataDeletionStatus) || !ts || !/^\d{1,12}$/.test(ts) || !sign) {
      throw invalidReport('Send status (in_progress or completed), ts (Unix seconds) and sign.');
    }
    if (Math.abs(Math.floor(this.clock.now() / 1000) - Number(ts)) > REPORT_TOLERANCE_SECONDS) {
      throw invalidReport(`ts is more than ${REPORT_TOLERANCE_SECONDS} s away from the platform's clock.`);
    }
    const app = await this.apps.getById(request.app_id);
    const text = signedText({ request_id: requestId, status, ts });
    if (!signatureMatches(this.apps.secretOf(app), text, sign)) {
      throw invalidReport('sign is not the HMAC-SHA256 of the report with the app secret.');
    }
    if (request.status === 'completed' || request.status === status) return request;
    return this.db
      .updateTable('data_deletion_requests')
      .set({ status: status as DataDeletionStatus, updated_at: this.clock.now() })
      .where('id', '=', requestId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}

const notFound = () =>
  appError('deletion_request_not_found', 'There is no data deletion request with this confirmation code.');
const invalidReport = (message: string) => appError('invalid_deletion_report', message);
