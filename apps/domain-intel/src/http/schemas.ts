import { type TSchema, Type } from '@fastify/type-provider-typebox';

/** Response schemas shared by every /v1 route, so the OpenAPI document shows the envelope. */
export const Meta = Type.Object(
  { request_id: Type.String() },
  { additionalProperties: true, description: 'Request id, and paging fields on lists' },
);

export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data, meta: Meta });

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Machine-readable snake_case code' }),
      message: Type.String({ description: 'What went wrong, for a person' }),
      request_id: Type.String(),
      docs: Type.String({ description: 'Link to the documentation of this code' }),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every error has this shape' },
);

/** The error responses a keyed /v1 route can give besides its own. */
export const keyedErrorResponses = {
  400: Type.Ref('ErrorEnvelope'),
  401: Type.Ref('ErrorEnvelope'),
  403: Type.Ref('ErrorEnvelope'),
  429: Type.Ref('ErrorEnvelope'),
  503: Type.Ref('ErrorEnvelope'),
};
