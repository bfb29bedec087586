import { AppError } from '@repo/server-kit';

/**
 * Every failure of the zones module has a stable snake_case code a person or a job can act on.
 * The HTTP status is what an API route would answer if the error reached a caller.
 */
export const zoneErrorStatus = {
  invalid_tld: 400,
  invalid_date: 400,
  zone_file_not_found: 404,
  zone_file_corrupt: 422,
  zone_file_truncated: 422,
  zone_file_invalid: 422,
  zone_shrunk_too_much: 422,
  snapshot_not_found: 404,
  czds_not_configured: 503,
  czds_auth_failed: 502,
  czds_zone_not_approved: 403,
  czds_download_limit: 429,
  czds_unavailable: 503,
} as const;

export type ZoneErrorCode = keyof typeof zoneErrorStatus;

export class ZoneError extends AppError {
  declare readonly code: ZoneErrorCode;

  constructor(
    code: ZoneErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(zoneErrorStatus[code], code, message, options);
    this.name = 'ZoneError';
  }
}

export const isZoneError = (error: unknown): error is ZoneError => error instanceof ZoneError;
