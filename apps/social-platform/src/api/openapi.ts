import {
  ApiEnvelope,
  ApiPaging,
  apiErrorOutputOf,
  Friend,
  FriendshipCheck,
  Notification,
  NotificationAdded,
  Photo,
  TokenAnswer,
  UploadedPhoto,
  User,
} from '@repo/contracts/platform';
import { type TSchema, Type } from 'typebox';
import { APPLICATION_API_CODES, type ErrorCode, errorCatalogue } from '../error-catalogue.ts';
import type { ApiMethod, MethodRegistry } from '../methods/registry.ts';
import { BATCH_METHOD, MAX_BATCH_CALLS } from './batch.ts';

/** The records api.php answers with, registered by the app as OpenAPI components (`$ref: 'User#'`). */
export const API_RECORD_SCHEMAS = [
  User,
  Friend,
  Notification,
  NotificationAdded,
  Photo,
  UploadedPhoto,
  FriendshipCheck,
];

/** The Application API's codes answering with `status`, from the catalogue. */
const apiCodesWithStatus = (status: number): ErrorCode[] =>
  errorCatalogue.codesWithStatus(status).filter((code) => APPLICATION_API_CODES.includes(code));

const json = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });

/** The error response of one status: the same envelope, `code` one of the catalogue's codes of that status. */
function errorResponse(status: number) {
  const codes = apiCodesWithStatus(status);
  return json(
    `Error, in the same envelope; code is one of ${codes.join(', ')}`,
    ApiEnvelope(apiErrorOutputOf(Type.Unsafe<ErrorCode>({ type: 'string', enum: codes }))),
  );
}

/** Every error status the Application API answers with, each with its codes. */
function errorResponses() {
  const statuses = [...new Set(APPLICATION_API_CODES.map((code) => errorCatalogue.entry(code).status))].sort(
    (a, b) => a - b,
  );
  return Object.fromEntries(statuses.map((status) => [status, errorResponse(status)]));
}

/** `output` of a method in words, naming its component: "User", "array of Friend", "integer". */
export function describeOutput(method: ApiMethod): string {
  const name = (schema: TSchema): string =>
    (schema as { $id?: string }).$id ?? (schema as { type?: string }).type ?? 'value';
  const { items } = method.output as { items?: TSchema };
  return method.kind === 'list' && items ? `array of ${name(items)}` : name(method.output);
}

/** A `$ref` to the registered component of a record, or the schema itself when it is not one. */
function reference(schema: TSchema): unknown {
  const id = (schema as { $id?: string }).$id;
  if (id && API_RECORD_SCHEMAS.some((record) => (record as { $id?: string }).$id === id)) return { $ref: `${id}#` };
  const { items } = schema as { items?: TSchema };
  if ((schema as { type?: string }).type === 'array' && items) return { type: 'array', items: reference(items) };
  const { $id: _id, ...plain } = schema as Record<string, unknown>;
  return plain;
}

/** The 200 answer: the envelope whose `output` is one of the methods' outputs (the table says whose). */
function successResponse(registry: MethodRegistry) {
  const outputs = new Map<string, unknown>();
  for (const method of registry.all) outputs.set(describeOutput(method), reference(method.output));
  return json('The envelope; output is what the method gives (see the method table)', {
    type: 'object',
    required: ['api', 'output'],
    properties: {
      api: ApiPaging,
      output: { oneOf: [...outputs.entries()].map(([title, schema]) => ({ title, ...(schema as object) })) },
    },
  });
}

function methodTable(registry: MethodRegistry): string {
  const rows = registry.all.map((method) => {
    const params = Object.entries(method.params)
      .map(([name, spec]) => (spec.required ? `**${name}**` : name))
      .join(', ');
    return `| ${method.httpMethod} | \`${method.name}\` | ${params} | ${describeOutput(method)} | ${method.summary} |`;
  });
  const batch =
    `| GET | \`${BATCH_METHOD}\` | **calls** | array of envelopes, one per call | Up to ${MAX_BATCH_CALLS} calls in one ` +
    'request: calls is a JSON array of {"method", "params"}; each call is answered, counted and permission-checked as ' +
    'if it came alone, its fault in its own envelope; POST-only methods need a POSTed batch, uploads cannot be batched. |';
  return ['| HTTP | method | parameters (bold: required) | output | |', '|---|---|---|---|---|', ...rows, batch].join(
    '\n',
  );
}

function errorTable(): string {
  const rows = APPLICATION_API_CODES.map((code) => errorCatalogue.entry(code))
    .sort((a, b) => a.status - b.status)
    .map((entry) => `| ${entry.status} | \`${entry.code}\` | ${entry.meaning} | ${entry.action} |`);
  return ['| status | code | meaning | what to do |', '|---|---|---|---|', ...rows].join('\n');
}

/** Route schema of api.php, for the OpenAPI document (validation is the registry's). */
export function apiRouteSchema(registry: MethodRegistry, maxBytes: number) {
  const paramNames = new Set(registry.all.flatMap((method) => Object.keys(method.params)));
  const descriptions = new Map<string, string>();
  for (const method of registry.all) {
    for (const [name, spec] of Object.entries(method.params)) descriptions.set(name, spec.description);
  }
  const queryProperties: Record<string, unknown> = {
    token: { type: 'string', description: 'The token from token.php (or in the form body).' },
    method: {
      type: 'string',
      enum: [...registry.names, BATCH_METHOD].sort(),
      description: 'module.name, or batch (or in the form body).',
    },
    calls: {
      type: 'string',
      description: `method=batch only: a JSON array of 1 to ${MAX_BATCH_CALLS} {"method": "module.name", "params": {…}}.`,
    },
  };
  for (const name of paramNames) {
    if (name === 'photo') continue;
    const spec = registry.all.flatMap((method) => Object.entries(method.params)).find(([key]) => key === name)?.[1];
    queryProperties[name] = {
      type: spec?.kind === 'integer' ? 'integer' : 'string',
      ...(spec?.kind === 'integer' ? { minimum: spec.min } : {}),
      description: descriptions.get(name),
    };
  }
  return {
    summary: 'Call a method of the Application API',
    description: [
      'Every answer is `{"api": {"total", "pages", "current_page"}, "output": …}`. Lists give 10 items a page; a page past the end is an empty list with the right totals. Single values have total 1, pages 1, current_page 1. `user_id` omitted means the token\'s own user.',
      '',
      methodTable(registry),
      '',
      `photo.addPhoto is a multipart/form-data POST with the file in \`photo\` (at most ${maxBytes} bytes).`,
      '',
      '### Errors',
      errorTable(),
    ].join('\n'),
    tags: ['Application API'],
    querystring: { type: 'object', properties: queryProperties },
    response: { 200: successResponse(registry), ...errorResponses() },
  };
}

export const tokenRouteSchema = {
  summary: 'Trade a one-time key for a token',
  description:
    'The platform opens an app with `?key=…` in its canvas URL. The app trades the key, once, for a token valid for ' +
    'TOKEN_TTL_SECONDS (not renewed by use; when it ends, ask the user to open the app again). Each exchange gives ' +
    'its own token, so a user on two devices has two. A replayed key is refused and revokes only the token it gave. ' +
    'Limited to TOKEN_EXCHANGE_LIMIT successful exchanges per app per window; failed keys are not counted. ' +
    'With sig, only the holder of the app secret can redeem a key.',
  tags: ['Application API'],
  querystring: {
    type: 'object',
    required: ['key'],
    properties: {
      key: { type: 'string', description: 'The one-time key from the canvas URL.' },
      sig: {
        type: 'string',
        pattern: '^[0-9a-f]{64}$',
        description:
          'Lowercase hex HMAC-SHA256 of the key (its UTF-8 bytes) with the app secret (its UTF-8 bytes) as the HMAC key. ' +
          'Required when the app requires a signed exchange (401 signature_required without it); a wrong one is ' +
          '401 invalid_signature. Either way the key stays unused.',
      },
    },
  },
  response: { 200: json('The token', TokenAnswer), ...errorResponses() },
};

/** api.php by POST: the same parameters as a form, and photo.addPhoto's file. */
export function apiPostSchema(getSchema: ReturnType<typeof apiRouteSchema>) {
  return {
    ...getSchema,
    summary: 'Call a method with a form body (photo.addPhoto: multipart/form-data)',
    consumes: ['multipart/form-data', 'application/x-www-form-urlencoded'],
    body: {
      type: 'object',
      properties: {
        ...getSchema.querystring.properties,
        photo: { type: 'string', format: 'binary', description: 'photo.addPhoto: the image file.' },
      },
    },
  };
}
