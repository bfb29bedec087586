import { type Static, Type } from 'typebox';
import { Literals } from '../schema-helpers.ts';

export const AVAILABILITY_STATUSES = ['available', 'registered', 'reserved', 'unknown', 'invalid'] as const;
export const AVAILABILITY_SOURCES = ['zone', 'rdap', 'whois', 'reserved', 'rules'] as const;

export const AvailabilityStatus = Literals(AVAILABILITY_STATUSES);
export type AvailabilityStatus = Static<typeof AvailabilityStatus>;

export const AvailabilitySource = Literals(AVAILABILITY_SOURCES, {
  description:
    "The evidence: the latest zone snapshot, the registry's RDAP or port-43 WHOIS server, a reserved-name " +
    "list (ICANN Registry Agreement Specification 5, a registry's own list, or the operator's), or our syntax rules",
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
  server: Type.Optional(
    Type.String({ description: 'The registry server asked (RDAP base URL, or WHOIS host:port), when one was' }),
  ),
  cached: Type.Optional(Type.Boolean({ description: 'Repeated from an earlier answer (checked_at says when)' })),
  reason: Type.Optional(
    Type.String({ description: 'Why unknown, invalid or reserved (snake_case code, e.g. rate_limited, reserved)' }),
  ),
  message: Type.Optional(Type.String()),
  registry_status: Type.Optional(Type.Array(Type.String(), { description: 'RDAP status of a registered name' })),
});
export type Availability = Static<typeof Availability>;
