import { AppError, type AppErrorOptions } from '@repo/server-kit/errors';
import { errorCatalogue } from '../error-catalogue.ts';

/** The codes a zones failure can carry (each is in the API's error catalogue, with its status). */
export type ZoneErrorCode =
  | 'invalid_tld'
  | 'invalid_date'
  | 'zone_file_not_found'
  | 'zone_file_corrupt'
  | 'zone_file_truncated'
  | 'zone_file_invalid'
  | 'zone_shrunk_too_much'
  | 'snapshot_not_found'
  | 'czds_not_configured'
  | 'czds_auth_failed'
  | 'czds_zone_not_approved'
  | 'czds_download_limit'
  | 'czds_unavailable';

/**
 * Every failure of the zones module has a stable snake_case code a person or a job can act on;
 * its HTTP status is the catalogue's, what an API route would answer if the error reached a caller.
 */
export class ZoneError extends AppError {
  declare readonly code: ZoneErrorCode;

  constructor(code: ZoneErrorCode, message: string, options: AppErrorOptions = {}) {
    super(errorCatalogue.entry(code), message, options);
    this.name = 'ZoneError';
  }
}

export const isZoneError = (error: unknown): error is ZoneError => error instanceof ZoneError;
