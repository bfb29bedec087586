import type { FastifyInstance } from 'fastify';
import { appError } from '../error-catalogue.ts';

/**
 * C0 control characters and DEL. PostgreSQL refuses NUL in text, terminals and logs
 * misread the others, and no person types them: they are refused wherever text comes in.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
const CONTROL_IN_PARAMETERS = /[\u0000-\u001f\u007f]/;
/** Form bodies may hold tabs and line breaks (a message typed into a textarea); nothing else. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
const CONTROL_IN_BODY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const controlCharacters = (name: string) =>
  appError('invalid_characters', `${name} contains a control character (such as NUL); send printable text only.`, {
    details: { parameter: name },
  });

/** The name of the first field whose text holds a forbidden character, looking into arrays and objects. */
function firstOffender(value: unknown, pattern: RegExp, name: string): string | undefined {
  if (typeof value === 'string') return pattern.test(value) ? name : undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstOffender(item, pattern, name);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (pattern.test(key)) return 'a field name';
      const found = firstOffender(item, pattern, key);
      if (found) return found;
    }
  }
  return undefined;
}

/** Whether a URL parameter's text holds a control character (tab and newline included). */
export const hasControlCharacter = (value: string): boolean => CONTROL_IN_PARAMETERS.test(value);

/** Throws 400 `invalid_characters` if a multipart text field or a file name holds a control character. */
export function refuseControlCharactersInField(name: string, value: string, kind: 'body' | 'parameter'): void {
  if ((kind === 'body' ? CONTROL_IN_BODY : CONTROL_IN_PARAMETERS).test(value)) throw controlCharacters(name);
}

/**
 * Query and path values are pieces of the URL, decoded only where it has a `%` (a `+` becomes a
 * space): a URL without `%` and without a control character of its own cannot give one, and one
 * scan of it is cheaper than walking the parsed values on every call.
 */
const urlMayHoldControlCharacters = (url: string): boolean => url.includes('%') || CONTROL_IN_PARAMETERS.test(url);

/**
 * Refuses, before any route runs, a query, path parameter or parsed form/JSON body that
 * holds a control character: 400 `invalid_characters`, rendered by the route's own error
 * handler (the API's envelope, or an HTML page). Multipart bodies are streamed by their
 * routes, which check each field with `refuseControlCharactersInField`.
 */
export function refuseControlCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const offender =
      (urlMayHoldControlCharacters(request.url)
        ? (firstOffender(request.query, CONTROL_IN_PARAMETERS, 'query') ??
          firstOffender(request.params, CONTROL_IN_PARAMETERS, 'path'))
        : undefined) ?? firstOffender(request.body, CONTROL_IN_BODY, 'body');
    done(offender ? controlCharacters(offender) : undefined);
  });
}
