import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@fastify/type-provider-typebox';

/** The dashboard's Fastify instance: its routes are typed by their TypeBox schemas, as /v1's are. */
export type DashboardApp = Parameters<FastifyPluginAsyncTypebox>[0];

/**
 * A form field as the form parser gives it: absent, one value, or a list when the field repeats
 * (checkboxes, a select with `multiple`). Pages read it with `firstOf` or `allOf`.
 */
export const FormField = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));
export type FormField = Static<typeof FormField> | undefined;

export const firstOf = (value: FormField): string => (Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));
export const allOf = (value: FormField): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).filter(Boolean);

/** `?done=` after a redirect: a fixed word that picks the notice a page shows (never text to show). */
export const NoticeQuery = Type.Object({ done: Type.Optional(Type.String()) });

/** A page of a list: `?offset=` as the page's links write it; anything else reads as the first page. */
export const OffsetQuery = Type.Object({ offset: Type.Optional(Type.String()), done: Type.Optional(Type.String()) });

/** The offset a list page starts at, within 0..max: a bad or missing value is the first page. */
export const offsetOf = (offset: string | undefined, max: number): number =>
  Math.max(0, Math.min(max, Number.parseInt(offset ?? '0', 10) || 0));
