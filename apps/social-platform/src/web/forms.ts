import type { z } from 'zod';

/** A form's messages by field name; `_form` holds what concerns the form as a whole. */
export type FieldErrors = Record<string, string>;

/** The first problem of each field, worded for the person who filled in the form. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '_form');
    errors[field] ??= sentenceCase(issue.message.startsWith('is ') ? `This ${issue.message}` : issue.message);
  }
  return errors;
}

/** "is required" → "This is required."; "must be …" → "Must be ….": messages shown under their field. */
const sentenceCase = (message: string) =>
  message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.');

/** Text fields of a url-encoded body: absent, repeated or non-text values become ''. */
export function textFields<const K extends string>(body: unknown, names: readonly K[]): Record<K, string> {
  const source = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const fields = {} as Record<K, string>;
  for (const name of names) {
    const value = source[name];
    fields[name] = typeof value === 'string' ? value : '';
  }
  return fields;
}
