import { type Static, type TSchema, Type } from 'typebox';

/** Every /v1 answer's `meta`: the request id, plus paging or run statistics on some routes. */
export const Meta = Type.Object(
  { request_id: Type.String() },
  { additionalProperties: true, description: 'Request id, and paging fields on lists' },
);

/** The success envelope of every /v1 route: `{data, meta}`. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data, meta: Meta });

/** The same with a route's own `meta` fields (lists: total and paging; suggest: its run statistics). */
export const EnvelopeWithMeta = <T extends TSchema, M extends TSchema>(data: T, meta: M) => Type.Object({ data, meta });

/** `meta` of a paged list: the request id and where the page sits in the whole list. */
export const ListMeta = <P extends Record<string, TSchema>>(paging: P) =>
  Type.Object({ request_id: Type.String(), ...paging }, { additionalProperties: true });

/**
 * The error envelope, parameterised by the schema of its `code` (a plain string here; a server
 * passes the union of its catalogue's codes of one status, registered under its own `$id`).
 */
export const errorEnvelopeOf = <C extends TSchema>(
  code: C,
  { $id = 'ErrorEnvelope', description = 'Every error has this shape' } = {},
) =>
  Type.Object(
    {
      error: Type.Object({
        code,
        message: Type.String({ description: 'What went wrong, for a person' }),
        request_id: Type.String(),
        docs: Type.String({ description: 'Link to the documentation of this code' }),
        details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      }),
    },
    { $id, description },
  );

export const ErrorEnvelope = errorEnvelopeOf(Type.String({ description: 'Machine-readable snake_case code' }));
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
