import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { z } from 'zod';
import {
  baseEnvSchema,
  ConfigError,
  createFastify,
  defineErrorCatalogue,
  genReqId,
  loadConfig,
  loggerOptions,
  newRequestId,
  nextUtcMidnight,
  redactUrl,
  startOfUtcDay,
  toPublicError,
  utcDate,
} from '../src/index.ts';

describe('log redaction', () => {
  it('redacts secret fields at the top level of a log call and one level down', () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    const { level, redact } = loggerOptions('info');
    const log = pino({ level, redact }, stream);
    log.info({ password: 'p1', key: 'k1', token: 't1', secret: 's1', user: { password: 'p2', token: 't2' } }, 'x');
    const line = JSON.parse(lines.join(''));
    assert.deepEqual(
      [line.password, line.key, line.token, line.secret, line.user.password, line.user.token],
      Array(6).fill('[REDACTED]'),
    );
  });
});

describe('redactUrl', () => {
  it('hides the values of secret query parameters and keeps the rest', () => {
    assert.equal(redactUrl('/token.php?key=abc123'), '/token.php?key=[REDACTED]');
    assert.equal(
      redactUrl('/api.php?token=t0k&method=user.getUser&page=2'),
      '/api.php?token=[REDACTED]&method=user.getUser&page=2',
    );
    assert.equal(redactUrl('/v1/check?domain=example.com'), '/v1/check?domain=example.com');
    assert.equal(redactUrl('/healthz'), '/healthz');
  });

  it('knows the common secret names in any case, in name[] forms and percent-encoded', () => {
    const names = [
      'access_token',
      'ACCESS_TOKEN',
      'apikey',
      'ApiKey',
      'api-key',
      'API_KEY',
      'key',
      'Token',
      'secret',
      'Signature',
      'code',
      'password',
      'token[]',
      'api_key[0]',
      'access_token%5B%5D',
      'acc%65ss_token',
    ];
    for (const name of names) {
      assert.equal(redactUrl(`/x?a=1&${name}=s3cr3t&b=2`), `/x?a=1&${name}=[REDACTED]&b=2`, name);
    }
    assert.equal(redactUrl('/x?token=a&token=b'), '/x?token=[REDACTED]&token=[REDACTED]');
    assert.equal(redactUrl('/x?q=a%20b+c&keys=1&monkey=2'), '/x?q=a%20b+c&keys=1&monkey=2', 'other bytes untouched');
    assert.equal(redactUrl('/x?token'), '/x?token', 'a name without a value has nothing to hide');
    assert.equal(redactUrl('/x?bad=%E0%A4%A&key=1'), '/x?bad=%E0%A4%A&key=[REDACTED]');
    assert.equal(
      redactUrl('/x?&token=a&&b=1&Key=&c#f?token=d'),
      '/x?&token=[REDACTED]&&b=1&Key=[REDACTED]&c#f?token=d',
      'empty parts kept, an empty value redacted, the fragment left as it is',
    );
  });
});

describe('toPublicError', () => {
  it('shows what an AppError says', () => {
    const catalogue = defineErrorCatalogue({ email_taken: { status: 409, meaning: 'Taken.', action: 'Sign in.' } });
    const error = catalogue.appError('email_taken', 'Taken.', { details: { email: 'a@b.co' } });
    assert.deepEqual(toPublicError(error), {
      status: 409,
      code: 'email_taken',
      message: 'Taken.',
      details: { email: 'a@b.co' },
    });
  });

  it('maps Fastify validation and body errors to 400 codes', () => {
    const validation = Object.assign(new Error('querystring/limit must be <= 100'), {
      validation: [{}],
      validationContext: 'querystring',
      statusCode: 400,
    });
    const mapped = toPublicError(validation);
    assert.equal(mapped.status, 400);
    assert.equal(mapped.code, 'invalid_request');
    assert.match(mapped.message, /query parameter: limit must be <= 100/);
    const badJson = Object.assign(new Error('Unexpected end'), {
      statusCode: 400,
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    });
    assert.equal(toPublicError(badJson).code, 'invalid_body');
  });

  it('never shows anything of an unexpected error', () => {
    const mapped = toPublicError(new Error('connection string postgres://user:secret@db/prod refused'));
    assert.equal(mapped.status, 500);
    assert.equal(mapped.code, 'internal_error');
    assert.ok(!mapped.message.includes('secret'));
  });
});

describe('loadConfig', () => {
  const schema = baseEnvSchema.extend({ LIMIT: z.coerce.number().int().min(1) });

  it('applies the embedded defaults', () => {
    const config = loadConfig(schema, { LIMIT: '3' });
    assert.equal(config.DATA_DIR, './data');
    assert.equal(config.DATABASE_URL, undefined);
    assert.equal(config.LIMIT, 3);
    assert.equal(config.TRUST_PROXY, false);
  });

  it('reports every bad variable by name at once', () => {
    assert.throws(
      () => loadConfig(schema, { LIMIT: '0', PORT: 'eighty', DATABASE_URL: 'mysql://x' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        ['LIMIT', 'PORT', 'DATABASE_URL'].every((name) => error.issues.some((issue) => issue.startsWith(name))),
    );
  });

  it('takes an empty PORT as unset (the default), not as port 0, and refuses one out of range', () => {
    assert.equal(loadConfig(schema, { LIMIT: '1', PORT: '' }).PORT, 3000);
    assert.equal(loadConfig(schema, { LIMIT: '1', PORT: '0' }).PORT, 0);
    assert.throws(() => loadConfig(schema, { LIMIT: '1', PORT: '65536' }), /PORT: /);
  });

  it('reads TRUST_PROXY as a flag, a hop count or a list', () => {
    assert.equal(loadConfig(schema, { LIMIT: '1', TRUST_PROXY: '1' }).TRUST_PROXY, true);
    assert.equal(loadConfig(schema, { LIMIT: '1', TRUST_PROXY: '2' }).TRUST_PROXY, 2);
    assert.deepEqual(loadConfig(schema, { LIMIT: '1', TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY, [
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
  });
});

describe('request ids', () => {
  const request = (id?: string) => ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as IncomingMessage;

  it('keeps a safe caller id and replaces anything else', () => {
    assert.equal(genReqId(request('trace-abc-123456')), 'trace-abc-123456');
    for (const unsafe of [undefined, 'short', 'has space in it', '<script>alert(1)</script>', 'x'.repeat(200)]) {
      assert.match(genReqId(request(unsafe)), /^req_[0-9a-f]{32}$/);
    }
  });

  it('makes a new id each time, across refills of its random bytes', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^req_[0-9a-f]{32}$/);
  });
});

/** A log stream for createFastify and the JSON lines written to it. */
function capturedLogLines(): { lines: Array<Record<string, unknown>>; logStream: PassThrough } {
  const lines: Array<Record<string, unknown>> = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { lines, logStream };
}

describe('request log lines', () => {
  it('writes one line per request when it completes, with the request, status and time, secrets redacted', async () => {
    const { lines, logStream } = capturedLogLines();
    const app = createFastify({ logLevel: 'info', trustProxy: false, logStream });
    app.get('/ok', async () => ({ ok: true }));
    app.get('/quiet', { logLevel: 'warn' }, async () => ({ ok: true }));
    await app.inject({ url: '/ok?token=s3cret&q=1', headers: { authorization: 'Bearer s3cret' } });
    await app.inject({ url: '/quiet' });
    await app.close();
    await new Promise((resolve) => setImmediate(resolve));
    const requestLines = lines.filter((line) => line.req !== undefined);
    assert.equal(requestLines.length, 1, 'one line for /ok, none for the route that logs at warn');
    const [line] = requestLines;
    assert.equal(line!.msg, 'request completed');
    assert.match(String(line!.request_id), /^req_/);
    assert.deepEqual(line!.req, { method: 'GET', url: '/ok?token=[REDACTED]&q=1', host: 'localhost', ip: '127.0.0.1' });
    assert.deepEqual(line!.res, { statusCode: 200 });
    assert.equal(typeof line!.responseTime, 'number');
    assert.ok(!JSON.stringify(lines).includes('s3cret'));
  });

  it("puts the request id on every line a handler writes, at the route's level, redacted", async () => {
    const { lines, logStream } = capturedLogLines();
    const app = createFastify({ logLevel: 'info', trustProxy: false, logStream });
    app.get('/talk', async (request) => {
      assert.equal(request.log.level, 'info');
      assert.equal((request.log as pino.Logger).isLevelEnabled('debug'), false);
      request.log.debug('left out');
      request.log.info({ token: 's3cret' }, 'handler line');
      request.log.child({ part: 'inner' }).warn('child line');
      return { ok: true };
    });
    app.get('/verbose', { logLevel: 'debug' }, async (request) => {
      assert.equal((request.log as pino.Logger).isLevelEnabled('debug'), true);
      request.log.debug('debug line');
      return { ok: true };
    });
    app.get('/quiet', { logLevel: 'warn' }, async (request) => {
      assert.equal((request.log as pino.Logger).isLevelEnabled('info'), false);
      request.log.info('not written');
      request.log.error('error line');
      return { ok: true };
    });
    await app.inject({ url: '/talk' });
    await app.inject({ url: '/verbose' });
    await app.inject({ url: '/quiet' });
    await app.close();
    await new Promise((resolve) => setImmediate(resolve));
    const byMessage = new Map(lines.map((line) => [line.msg, line]));
    for (const msg of ['handler line', 'child line', 'debug line', 'error line']) {
      assert.match(String(byMessage.get(msg)?.request_id), /^req_/, msg);
    }
    assert.equal(byMessage.get('handler line')!.request_id, byMessage.get('child line')!.request_id);
    assert.equal(byMessage.get('handler line')!.token, '[REDACTED]');
    assert.equal(byMessage.get('child line')!.part, 'inner');
    assert.ok(!byMessage.has('left out'));
    assert.ok(!byMessage.has('not written'));
    const completed = lines.filter((line) => line.msg === 'request completed');
    assert.equal(completed.length, 2, '/talk and /verbose, not the route that logs at warn');
    assert.equal(completed[0]!.request_id, byMessage.get('handler line')!.request_id);
  });

  it('writes nothing, and fails nothing, without a logger', async () => {
    const app = createFastify({ logLevel: 'info', trustProxy: false, logger: false });
    app.get('/ok', async () => ({ ok: true }));
    assert.equal((await app.inject({ url: '/ok' })).statusCode, 200);
    await app.close();
  });
});

describe('UTC day helpers', () => {
  it('find the day, its start and the next midnight', () => {
    const time = Date.parse('2026-03-10T23:59:59.999Z');
    assert.equal(utcDate(time), '2026-03-10');
    assert.equal(startOfUtcDay(time), Date.parse('2026-03-10T00:00:00Z'));
    assert.equal(nextUtcMidnight(time), Date.parse('2026-03-11T00:00:00Z'));
    assert.equal(nextUtcMidnight(Date.parse('2026-03-11T00:00:00Z')), Date.parse('2026-03-12T00:00:00Z'));
  });
});
