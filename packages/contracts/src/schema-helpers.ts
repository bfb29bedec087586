import { type TLiteral, type TNull, type TSchema, type TUnion, Type } from 'typebox';

/** `T | null`, the way every record spells a value that may be unknown. */
export const Nullable = <T extends TSchema>(schema: T, options?: Parameters<typeof Type.Union>[1]) =>
  Type.Union([schema, Type.Null()], options) as TUnion<[T, TNull]>;

/**
 * A closed set of strings as `anyOf` of `const`s (what the served documents have always shown).
 * `Type.Union(list.map(Type.Literal))` would lose the list's literal types, leaving `never`.
 */
export const Literals = <const T extends readonly string[]>(values: T, options?: Parameters<typeof Type.Union>[1]) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;
