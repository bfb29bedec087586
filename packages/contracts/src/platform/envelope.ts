import { type Static, type TSchema, Type } from 'typebox';

/** The `api` part of every api.php and token.php error answer. */
export const ApiPaging = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'Items in the whole list (1 for a single value, 0 on errors).' }),
    pages: Type.Integer({ minimum: 0, description: 'ceil(total / 10) (1 for a single value, 0 on errors).' }),
    current_page: Type.Integer({ minimum: 0, description: 'The page given (1 for a single value, 0 on errors).' }),
  },
  { description: 'Where this answer sits in the whole list' },
);
export type ApiPaging = Static<typeof ApiPaging>;

/** Every api.php answer, errors included: `{"api": {total, pages, current_page}, "output": …}`. */
export const ApiEnvelope = <T extends TSchema>(output: T) => Type.Object({ api: ApiPaging, output });
export type ApiEnvelope<T> = { api: ApiPaging; output: T };

/**
 * What an error puts in `output`, parameterised by the schema of its `code` (a plain string here;
 * the platform passes the codes of each HTTP status from its catalogue).
 */
export const apiErrorOutputOf = <C extends TSchema>(code: C) =>
  Type.Object({
    error: Type.Object({
      code,
      message: Type.String({ description: 'What went wrong, for a person' }),
      parameter: Type.Optional(Type.String({ description: 'The parameter at fault' })),
      permission: Type.Optional(Type.String({ description: 'The permission the method needs (permission_denied)' })),
      retry_after: Type.Optional(Type.Integer({ minimum: 0, description: 'Seconds to wait (429, as Retry-After)' })),
    }),
  });

export const ApiErrorOutput = apiErrorOutputOf(Type.String({ description: 'Machine-readable snake_case code' }));
export type ApiErrorOutput = Static<typeof ApiErrorOutput>;

/** The error answer of api.php and token.php: the envelope with no items and the error in `output`. */
export const ApiErrorEnvelope = ApiEnvelope(ApiErrorOutput);
export type ApiErrorEnvelope = Static<typeof ApiErrorEnvelope>;

/** token.php's answer to a good key. */
export const TokenAnswer = Type.Object({
  token: Type.String({ description: 'Opaque; pass it as token to api.php. Valid for TOKEN_TTL_SECONDS.' }),
});
export type TokenAnswer = Static<typeof TokenAnswer>;
