/**
 * JSON for a `<script type="application/json">` block: `<` is escaped so that no value can
 * close the script element, whatever it contains.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
