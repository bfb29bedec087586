import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, rawExchange } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';
import { multipartBody, solidJpeg } from './upload-helpers.ts';
import { signUp, type WebClient } from './web-client.ts';

const envelopeOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

for (const target of databaseTargets()) {
  describe(`inputs that once broke the platform (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let token: string;
    let ada: WebClient;
    before(async () => {
      t = await createTestApp({ target, env: { REQUEST_TIMEOUT_SECONDS: '1' } });
      token = await t.tokenFor((await t.user('uploader')).id);
      ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
    });
    after(() => t.close());
    const listening = async () => {
      if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
      return (t.app.server.address() as { port: number }).port;
    };

    const uploadBody = async (fields: Record<string, string>, fileName: string) => {
      const body = await multipartBody(
        { token, method: 'photo.addPhoto', ...fields },
        { name: fileName, type: 'image/jpeg', data: await solidJpeg(40, 30) },
      );
      return body;
    };

    it('stores an upload whose file part has no file name, named by photo_name or "Photo"', async () => {
      for (const [fields, type, expected] of [
        [{ photo_name: 'Named' }, 'application/octet-stream', 'Named'],
        [{}, 'application/octet-stream', 'Photo'],
        [{}, 'image/jpeg', 'Photo'],
      ] as const) {
        const body = await uploadBody(fields, 'x.jpg');
        // Take the filename parameter out of the part's header, as some clients send it.
        const payload = Buffer.from(
          body.payload
            .toString('latin1')
            .replace('; filename="x.jpg"', '')
            .replace('Content-Type: image/jpeg', `Content-Type: ${type}`),
          'latin1',
        );
        const response = await t.app.inject({ method: 'POST', url: '/api.php', headers: body.headers, payload });
        assert.equal(response.statusCode, 200, response.body);
        const photos = await t.call({ token, method: 'photo.getPhotos' });
        assert.equal(photos.body.output[0].name, expected);
      }
    });

    it('refuses NUL and other control characters with 400 invalid_characters, in every kind of input', async () => {
      const nul = '\u0000';
      const apiCases = [
        { url: `/api.php?token=${token}&method=user.getUser&user_id=1%00` },
        { url: `/api.php?token=${token}%00&method=user.getUser` },
        {
          url: '/api.php',
          method: 'POST' as const,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `token=${token}&method=user.getUser&user_id=%00`,
        },
        {
          url: '/api.php',
          method: 'POST' as const,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ token, method: 'user.getUser', note: `a${nul}b` }),
        },
        { url: '/token.php?key=spk_%00' },
      ];
      for (const { url, method = 'GET', headers, payload } of apiCases as Array<{
        url: string;
        method?: 'GET' | 'POST';
        headers?: Record<string, string>;
        payload?: string;
      }>) {
        const response = await t.app.inject({ method, url, headers, payload });
        assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
        assert.equal(response.json().output.error.code, 'invalid_characters', url);
      }
      for (const fields of [{ photo_name: `bad${nul}name` }, { photo_name: 'bell\u0007' }]) {
        const body = await uploadBody(fields, 'ok.jpg');
        const response = await t.app.inject({ method: 'POST', url: '/api.php', ...body });
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().output.error.code, 'invalid_characters');
      }
      const badFileName = await uploadBody({}, `a${nul}.jpg`);
      const named = await t.app.inject({ method: 'POST', url: '/api.php', ...badFileName });
      assert.equal(named.statusCode, 400, named.body);

      // Pages: a query, a path and a form field, each answered with an HTML page.
      for (const url of ['/people?q=a%00b', '/u/ada%00', '/login?next=/%0A']) {
        const page = await ada.get(url);
        assert.equal(page.statusCode, 400, url);
        assert.match(String(page.headers['content-type']), /^text\/html/, url);
      }
      await ada.get('/inbox');
      const message = await ada.post('/mail/ada', { body: `hello${nul}` });
      assert.equal(message.statusCode, 400, message.body);
      assert.match(String(message.headers['content-type']), /^text\/html/);
      const upload = await ada.upload(
        '/photos',
        { field: 'photo', name: 'lake.jpg', type: 'image/jpeg', data: await solidJpeg(40, 30) },
        { name: `lake${nul}` },
      );
      assert.equal(upload.statusCode, 400, upload.body);
    });

    it('sends a login only to a path of this site (next=)', async () => {
      const client = await signUp(t.app, { userName: 'nexus', fullName: 'Nex Us' });
      await client.post('/logout', {});
      for (const [next, expected] of [
        ['/\t/evil.example', '/'],
        ['/\\evil.example', '/'],
        ['//evil.example', '/'],
        ['/\n/evil.example', '/'],
        ['https://evil.example/', '/'],
        ['/photos?page=2', '/photos?page=2'],
      ]) {
        await client.get('/login');
        const response = await client.post('/login', {
          login: 'nexus',
          password: 'correct horse battery',
          next: next!,
        });
        assert.equal(response.statusCode, 303, `${JSON.stringify(next)}: ${response.body}`);
        assert.equal(response.headers.location, expected, JSON.stringify(next));
        await client.get('/');
        await client.post('/logout', {});
      }
    });

    it('answers an unknown page with an HTML 404, and unknown API addresses with the envelope', async () => {
      const page = await ada.get('/no/such/page');
      assert.equal(page.statusCode, 404);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.body, /Not found/);
      for (const url of ['/media/no/such.jpg', '/api.php/extra', '/token.php/x']) {
        const response = await t.app.inject(url);
        assert.equal(response.statusCode, 404, url);
        assert.equal(response.json().output.error.code, 'not_found', url);
      }
    });

    it('answers a wrong method with 405 and Allow: the envelope on API addresses, a page elsewhere', async () => {
      for (const [method, url, allowed] of [
        ['PUT', '/api.php?method=user.getUser', 'GET, HEAD, POST'],
        ['DELETE', '/token.php?key=x', 'GET, HEAD'],
        ['POST', '/openapi.json', 'GET, HEAD'],
      ] as const) {
        const response = await t.app.inject({ method, url });
        assert.equal(response.statusCode, 405, `${method} ${url}`);
        assert.equal(response.headers.allow, allowed);
        assert.equal(response.json().output.error.code, 'method_not_allowed');
        assert.ok(response.headers['x-request-id']);
      }
      const page = await t.app.inject({ method: 'DELETE', url: '/login' });
      assert.equal(page.statusCode, 405);
      assert.match(String(page.headers.allow), /GET/);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.equal((await t.app.inject({ method: 'DELETE', url: '/no/such/page' })).statusCode, 404);
    });

    it('sends X-RateLimit-Reset of the log-in limit as a Unix time in seconds, as the other service does', async () => {
      const before = Math.floor(Date.now() / 1000);
      const response = await t.app.inject({
        method: 'POST',
        url: '/login',
        payload: { user_name: 'x', password: 'y' },
      });
      const reset = Number(response.headers['x-ratelimit-reset']);
      // The end of the address's 10-minute window (which earlier log-ins of this suite may have opened).
      assert.ok(reset >= before && reset <= Math.floor(Date.now() / 1000) + 600 + 1, String(reset));
    });

    it('answers an unencoded ü on the request line and a broken percent-encoding in the envelope, with a request id', async () => {
      const port = await listening();
      const raw = await rawExchange(port, `GET /api.php?method=user.getUser&name=müller HTTP/1.1\r\nHost: x\r\n\r\n`);
      assert.match(raw, /^HTTP\/1\.1 400 /);
      assert.equal(envelopeOf(raw).output.error.code, 'invalid_url');
      assert.match(raw, /\r\nX-Request-Id: req_[0-9a-f]{32}\r\n/);
      const broken = await t.app.inject('/media/%ZZ');
      assert.equal(broken.statusCode, 400);
      assert.equal(broken.json().output.error.code, 'invalid_url');
      assert.ok(broken.headers['x-request-id']);
    });

    it('refuses two files in one upload with 400 unexpected_file, as documented', async () => {
      const form = new FormData();
      form.append('token', token);
      form.append('method', 'photo.addPhoto');
      const jpeg = new Uint8Array(await solidJpeg(20, 20));
      form.append('photo', new Blob([jpeg], { type: 'image/jpeg' }), 'one.jpg');
      form.append('photo', new Blob([jpeg], { type: 'image/jpeg' }), 'two.jpg');
      const request = new Request('http://upload.test/', { method: 'POST', body: form });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api.php',
        headers: { 'content-type': request.headers.get('content-type')! },
        payload: Buffer.from(await request.arrayBuffer()),
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().output.error.code, 'unexpected_file');
    });

    it('answers a 100 KB key and a stalled upload over a real socket, in the envelope', async () => {
      const port = await listening();
      const longKey = await rawExchange(port, (socket) =>
        socket.write(`GET /token.php?key=${'k'.repeat(100 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`),
      );
      assert.match(longKey, /^HTTP\/1\.1 431 /);
      assert.equal(envelopeOf(longKey).output.error.code, 'request_too_large');

      // 1 KB of a declared 1 MB body, then silence: answered 408 once REQUEST_TIMEOUT_SECONDS is over.
      const stalled = await rawExchange(port, (socket) => {
        socket.write(
          `POST /api.php?token=${token}&method=photo.addPhoto HTTP/1.1\r\nHost: x\r\n` +
            'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 1048576\r\n\r\n',
        );
        socket.write(
          `--b\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n${'x'.repeat(1024)}`,
        );
      });
      assert.match(stalled, /^HTTP\/1\.1 408 /);
      assert.equal(envelopeOf(stalled).output.error.code, 'request_timeout');
    });
  });
}
