import { appError } from '../error-catalogue.ts';

/** A name a person gives a filter: 1-64 characters, no control characters. */
export function validName(raw: unknown, what: string): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name.length === 0 || name.length > 64 || /\p{Cc}/u.test(name)) {
    throw appError('invalid_name', `The ${what} name must be 1-64 characters without control characters.`, {
      details: {
        parameter: 'name',
      },
    });
  }
  return name;
}

/** Rows over a plan limit stay but are paused: the oldest `limit` are active. */
export function activeCount(total: number, limit: number): number {
  return Math.min(total, limit);
}
