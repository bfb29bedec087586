import type { z } from 'zod';
/** A form's messages by field name; `_form` holds what concerns the form as a whole. */
export type FieldErrors = Record<string, string>;
/** The first problem of each field, worded for the person who filled in the form. */
export declare function fieldErrors(error: z.ZodError): FieldErrors;
/** Text fields of a url-encoded body: absent, repeated or non-text values become ''. */
export declare function textFields<const K extends string>(body: unknown, names: readonly K[]): Record<K, string>;
/** A local path to return to after logging in; anything that could leave the site becomes `/`. */
export declare function safeNextPath(value: unknown): string;
