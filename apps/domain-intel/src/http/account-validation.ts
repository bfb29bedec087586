import { TARGET_KINDS } from '@repo/contracts/domain-intel';
import type { AppError } from '@repo/server-kit';
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { appError } from '../error-catalogue.ts';

/** What a schema error of one field is answered with: a catalogue code and a message for a person. */
type FieldRule = (error: FastifySchemaValidationError) => AppError;

const fixed =
  (...args: Parameters<typeof appError>): FieldRule =>
  () =>
    appError(...args);

const notFound = (code: 'filter_not_found' | 'target_not_found' | 'delivery_not_found', what: string): FieldRule =>
  fixed(code, `No ${what} with this id on the account.`);

const watchedDomain: FieldRule = (error) => {
  if (error.keyword === 'required') {
    return appError('missing_domain', 'domain is required: give the name to watch, such as example.com.');
  }
  if (error.keyword === 'maxLength') return appError('domain_too_long', 'domain is longer than 253 characters.');
  return appError('invalid_domain', 'domain must be a name such as example.com, given as text.');
};

const bulkCheckNotFound = fixed('bulk_check_not_found', 'The account has no bulk check with this id.');

const paging = (name: 'limit' | 'offset'): FieldRule =>
  fixed(`invalid_${name}`, `${name} must be given once, as a whole number.`, { details: { parameter: name } });

/**
 * For every field every /account route validates (body, path and query), the catalogue code its
 * schema error is answered with. Keyed by route, then field: the `id` of a filter, a target and a
 * delivery are three codes. A route with a field missing here fails at start-up (see below).
 */
const FIELD_RULES: Readonly<Record<string, Readonly<Record<string, FieldRule>>>> = {
  'GET /account/watchlist': { limit: paging('limit'), offset: paging('offset') },
  'POST /account/filters': {
    name: fixed('invalid_name', 'name must be text of 1-64 characters without control characters.', {
      details: { field: 'name' },
    }),
    filter: fixed(
      'invalid_request',
      'filter must be a query string such as "tld=com&min_da=20" (at most 2,000 characters) or an object of ' +
        '/v1/domains filter parameters whose values are text, numbers or true/false.',
      { details: { field: 'filter' } },
    ),
    brand: fixed(
      'invalid_brand_term',
      'brand must be text: one domain label without TLD of 3-63 characters, such as "paypal".',
      { details: { parameter: 'brand' } },
    ),
    target_ids: fixed(
      'invalid_request',
      'target_ids must be a list of at most 20 target ids (tgt_…) as GET /account/targets lists them.',
      { details: { field: 'target_ids' } },
    ),
  },
  'DELETE /account/filters/:id': { id: notFound('filter_not_found', 'saved filter') },
  'POST /account/targets': {
    kind: fixed('invalid_target_kind', `kind must be one of ${TARGET_KINDS.join(', ')}.`, {
      details: { field: 'kind', accepted: [...TARGET_KINDS] },
    }),
    address: fixed(
      'invalid_target',
      'address must be text of at most 2,000 characters: the https URL of a webhook, an e-mail address, or ' +
        'sftp://user@host:port/directory.',
      { details: { field: 'address' } },
    ),
  },
  'DELETE /account/targets/:id': { id: notFound('target_not_found', 'delivery target') },
  'POST /account/deliveries/:id/redeliver': { id: notFound('delivery_not_found', 'delivery') },
  'POST /account/watchlist': { domain: watchedDomain },
  'POST /account/bulk-checks': {
    domains: fixed(
      'invalid_request',
      'domains must be a list of names given as text, such as {"domains": ["example.com", "example.net"]}.',
      { details: { field: 'domains' } },
    ),
    // The body as a whole (a JSON list, a number): it is neither the object nor a text upload.
    '': fixed(
      'invalid_request',
      'Send {"domains": [...]} as JSON, or the names as text/plain (one per line) or text/csv (first column).',
      { details: { accepted: ['application/json', 'text/plain', 'text/csv'] } },
    ),
  },
  'GET /account/bulk-checks': { limit: paging('limit'), offset: paging('offset') },
  'GET /account/bulk-checks/:id': { id: bulkCheckNotFound },
  'GET /account/bulk-checks/:id/results': {
    id: bulkCheckNotFound,
    format: fixed('invalid_format', 'format must be ndjson or csv.', { details: { parameter: 'format' } }),
  },
  'POST /account/bulk-checks/:id/cancel': { id: bulkCheckNotFound },
  'DELETE /account/watchlist/:domain': { domain: watchedDomain },
};

type Location = 'body' | 'params' | 'querystring';
const LOCATIONS: readonly Location[] = ['body', 'params', 'querystring'];

/** The names a route's schema declares at a location, and those it requires. */
function fieldsOf(schema: unknown): { names: string[]; required: string[] } {
  const object = schema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  return { names: Object.keys(object?.properties ?? {}), required: object?.required ?? [] };
}

/**
 * The /account routes answer a schema error with the code the catalogue documents for the field
 * (`invalid_target_kind` for a target's kind, …), never Ajv's own wording ("must be equal to
 * one of the allowed values"). Installed on the /account scope before its routes; each route gets
 * a schema error formatter that reads the first error's field. A route whose schema has a field
 * without a rule is refused at start-up, so a new field cannot fall back to a raw message.
 */
export function answerAccountSchemaErrors(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    const schema = route.schema as Partial<Record<Location, unknown>> | undefined;
    if (!schema || !LOCATIONS.some((location) => schema[location])) return;
    const method = route.method === 'HEAD' ? 'GET' : String(route.method);
    const key = `${method} ${route.url}`;
    const rules = FIELD_RULES[key] ?? {};
    const shapes = Object.fromEntries(LOCATIONS.map((location) => [location, fieldsOf(schema[location])]));
    const unruled = LOCATIONS.flatMap((location) => shapes[location]!.names).filter((name) => !rules[name]);
    if (unruled.length > 0) {
      throw new Error(
        `${key}: no catalogue code for the schema errors of ${unruled.join(', ')} (account-validation.ts)`,
      );
    }
    route.schemaErrorFormatter = (errors, location) => {
      const [first] = errors;
      const field =
        first?.keyword === 'required'
          ? String(first.params.missingProperty)
          : (first?.instancePath.split('/')[1] ?? '');
      const rule = rules[field];
      if (first && rule) return rule(first);
      // The whole body is not an object (absent, a list, a string): say what it must hold.
      const { names, required } = shapes[location as Location] ?? { names: [], required: [] };
      const optional = names.filter((name) => !required.includes(name));
      return appError(
        'invalid_request',
        `The ${location === 'body' ? 'body' : location} must be a JSON object with ${required.join(' and ')}` +
          `${optional.length > 0 ? ` (and optionally ${optional.join(', ')})` : ''}.`,
        { details: { accepted: names } },
      );
    };
  });
}
