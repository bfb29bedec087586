import type { MethodRegistry } from '../methods/registry.ts';

/** Every error code the Application API gives, with its status, for the reference. */
export const ERROR_CODES: Array<[code: string, status: number, meaning: string]> = [
  ['missing_key', 400, 'token.php was called without key.'],
  ['invalid_key', 401, 'The key is malformed or unknown.'],
  ['key_expired', 401, 'The key is older than KEY_TTL_SECONDS.'],
  ['key_already_used', 401, 'The key was exchanged before; the token it gave is now revoked.'],
  ['missing_token', 401, 'api.php was called without token.'],
  ['invalid_token', 401, 'The token is malformed or unknown.'],
  ['token_expired', 401, 'The token is older than TOKEN_TTL_SECONDS.'],
  ['token_revoked', 401, 'The key of this token was replayed, the user removed the app, or the app was deleted.'],
  ['app_disabled', 403, 'The application has been disabled.'],
  ['missing_method', 400, 'method is missing.'],
  ['invalid_method', 400, 'method is not of the form module.name.'],
  ['unknown_method', 400, 'No such method.'],
  ['post_required', 405, 'The method needs POST (photo.addPhoto).'],
  ['missing_parameter', 400, 'A required parameter is missing; output.error.parameter names it.'],
  ['invalid_parameter', 400, 'A parameter is malformed (page=0, user_id=abc …); output.error.parameter names it.'],
  ['user_not_found', 404, 'user_id or friend_user_id names no user.'],
  ['permission_denied', 403, "Private data of another user, or a friends list its owner doesn't share with you."],
  [
    'rate_limited',
    429,
    'Too many calls for this app and user, or key exchanges for this app; output.error.retry_after and Retry-After say when to retry.',
  ],
  ['invalid_characters', 400, 'A parameter, field or file name holds a control character (NUL …).'],
  ['request_timeout', 408, 'The request body did not arrive within REQUEST_TIMEOUT_SECONDS.'],
  ['request_too_large', 431, 'The URL and headers are over 16 KB; send long values in a POST body.'],
  ['not_found', 404, 'No such script or file.'],
  ['payload_too_large', 413, 'The upload is larger than UPLOAD_MAX_BYTES.'],
  ['image_too_large', 413, 'The image has more pixels than UPLOAD_MAX_PIXELS.'],
  ['empty_file', 400, 'The uploaded file is empty.'],
  ['unsupported_image_type', 415, 'The file is not a JPEG, PNG, WebP, GIF or AVIF image (judged by content).'],
  ['invalid_image', 422, 'The image is damaged or truncated.'],
  ['unexpected_file', 400, 'A file was sent in a field other than photo, or two files in one upload.'],
  ['invalid_body', 400, 'The form or multipart body is malformed.'],
];

const PAGING = {
  type: 'object',
  required: ['total', 'pages', 'current_page'],
  properties: {
    total: { type: 'integer', description: 'Items in the whole list (1 for a single value, 0 on errors).' },
    pages: { type: 'integer', description: 'ceil(total / 10) (1 for a single value, 0 on errors).' },
    current_page: { type: 'integer', description: 'The page given (1 for a single value, 0 on errors).' },
  },
};

const ERROR_RESPONSE = {
  description: 'Error, in the same envelope',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          api: PAGING,
          output: {
            type: 'object',
            properties: {
              error: {
                type: 'object',
                required: ['code', 'message'],
                properties: {
                  code: { type: 'string', enum: ERROR_CODES.map(([code]) => code) },
                  message: { type: 'string' },
                  parameter: { type: 'string', description: 'The parameter at fault' },
                  retry_after: { type: 'integer', description: 'Seconds to wait (429)' },
                },
              },
            },
          },
        },
      },
    },
  },
};

function methodTable(registry: MethodRegistry): string {
  const rows = registry.all.map((method) => {
    const params = Object.entries(method.params)
      .map(([name, spec]) => (spec.required ? `**${name}**` : name))
      .join(', ');
    return `| ${method.httpMethod} | \`${method.name}\` | ${params} | ${method.output} | ${method.summary} |`;
  });
  return ['| HTTP | method | parameters (bold: required) | output | |', '|---|---|---|---|---|', ...rows].join('\n');
}

function errorTable(): string {
  const rows = ERROR_CODES.map(([code, status, meaning]) => `| ${status} | \`${code}\` | ${meaning} |`);
  return ['| status | code | meaning |', '|---|---|---|', ...rows].join('\n');
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
    method: { type: 'string', enum: registry.names, description: 'module.name (or in the form body).' },
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
    response: {
      200: {
        description: 'The envelope; output depends on the method',
        content: {
          'application/json': {
            schema: { type: 'object', required: ['api', 'output'], properties: { api: PAGING, output: {} } },
          },
        },
      },
      400: ERROR_RESPONSE,
      401: ERROR_RESPONSE,
      403: ERROR_RESPONSE,
      404: ERROR_RESPONSE,
      405: ERROR_RESPONSE,
      413: ERROR_RESPONSE,
      415: ERROR_RESPONSE,
      422: ERROR_RESPONSE,
      429: ERROR_RESPONSE,
    },
  };
}

export const tokenRouteSchema = {
  summary: 'Trade a one-time key for a token',
  description:
    'The platform opens an app with `?key=…` in its canvas URL. The app trades the key, once, for a token valid for ' +
    'TOKEN_TTL_SECONDS (not renewed by use; when it ends, ask the user to open the app again). Each exchange gives ' +
    'its own token, so a user on two devices has two. A replayed key is refused and revokes only the token it gave. ' +
    'Limited to TOKEN_EXCHANGE_LIMIT successful exchanges per app per window; failed keys are not counted.',
  tags: ['Application API'],
  querystring: {
    type: 'object',
    required: ['key'],
    properties: { key: { type: 'string', description: 'The one-time key from the canvas URL.' } },
  },
  response: {
    200: {
      description: 'The token',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['token'],
            properties: { token: { type: 'string', description: 'Opaque; pass it as token to api.php.' } },
          },
        },
      },
    },
    400: ERROR_RESPONSE,
    401: ERROR_RESPONSE,
    403: ERROR_RESPONSE,
    429: ERROR_RESPONSE,
  },
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
