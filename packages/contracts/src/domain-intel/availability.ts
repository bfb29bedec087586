import { type Static, Type } from 'typebox';
import { Literals } from '../schema-helpers.ts';

export const AVAILABILITY_STATUSES = ['available', 'registered', 'reserved', 'unknown', 'invalid'] as const;
export const AVAILABILITY_SOURCES = ['zone', 'rdap', 'cache', 'rules'] as const;

export const AvailabilityStatus = Literals(AVAILABILITY_STATUSES);
export type AvailabilityStatus = Static<typeof AvailabilityStatus>;

export const AvailabilitySource = Literals(AVAILABILITY_SOURCES, {
  description: 'What decided: zone snapshot, RDAP, the cache of an earlier answer, or our rules',
});
export type AvailabilitySource = Static<typeof AvailabilitySource>;

/** One row of /v1/check. `available` is true only on the registry's own "not found". */
export const Availability = Type.Object({
  domain: Type.String({ description: 'Normalised ASCII name; for an invalid entry, the entry as given' }),
  available: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'true only when the registry said the name is not registered; null when unknown or invalid',
  }),
  status: AvailabilityStatus,
  source: AvailabilitySource,
  // A cached row keeps the time of the answer it repeats.
  checked_at: Type.String({ format: 'date-time' }),
  reason: Type.Optional(Type.String({ description: 'Why unknown or invalid (snake_case code)' })),
  message: Type.Optional(Type.String()),
  registry_status: Type.Optional(Type.Array(Type.String(), { description: 'RDAP status of a registered name' })),
});
export type Availability = Static<typeof Availability>;
