import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import sharp from 'sharp';
import { createTestApp, PUBLIC_URL, type TestApp } from './helpers.ts';
import { multipartBody, pngBomb, rotatedJpeg, solidJpeg } from './upload-helpers.ts';

const SIZES = ['original', '75px', '100px', '150px', '240px', '500px', '1024px'];

async function storedFiles(t: TestApp): Promise<string[]> {
  try {
    const entries = await readdir(t.ctx.mediaDir, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

for (const target of databaseTargets()) {
  describe(`photo.addPhoto (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      // Small limits keep the hostile uploads small.
      t = await createTestApp({
        target,
        env: { UPLOAD_MAX_BYTES: String(2 * 1024 * 1024), UPLOAD_MAX_PIXELS: '4000000' },
      });
      token = await t.tokenFor((await t.user('photographer')).id);
    });
    after(() => t.close());

    const upload = async (file: { name: string; type: string; data: Buffer }, fields: Record<string, string> = {}) => {
      const body = await multipartBody({ token, method: 'photo.addPhoto', ...fields }, file);
      const response = await t.app.inject({ method: 'POST', url: '/api.php', ...body });
      return { status: response.statusCode, body: response.json() };
    };

    const assertRefused = async (
      file: { name: string; type: string; data: Buffer },
      status: number,
      code: string,
    ): Promise<void> => {
      const before = (await storedFiles(t)).length;
      const response = await upload(file);
      assert.equal(response.status, status, JSON.stringify(response.body));
      assert.equal(response.body.output.error.code, code);
      assert.equal((await storedFiles(t)).length, before, 'no file is left behind');
    };

    it('stores seven sizes, longest side, never enlarged, served with long cache headers', async () => {
      const { status, body } = await upload(
        { name: 'holiday.jpg', type: 'image/jpeg', data: await solidJpeg(1200, 600) },
        { photo_name: 'Holiday' },
      );
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.api, { total: 1, pages: 1, current_page: 1 });
      const expected: Record<string, [number, number]> = {
        original: [1200, 600],
        '75px': [75, 38],
        '100px': [100, 50],
        '150px': [150, 75],
        '240px': [240, 120],
        '500px': [500, 250],
        '1024px': [1024, 512],
      };
      for (const size of SIZES) {
        const url: string = body.output[size];
        assert.ok(url.startsWith(`${PUBLIC_URL}/media/`), url);
        const file = await t.app.inject(url.slice(PUBLIC_URL.length));
        assert.equal(file.statusCode, 200);
        assert.equal(file.headers['content-type'], 'image/jpeg');
        assert.match(String(file.headers['cache-control']), /max-age=31536000.*immutable/);
        const metadata = await sharp(file.rawPayload).metadata();
        assert.deepEqual([metadata.width, metadata.height], expected[size], size);
      }
      const small = await upload({ name: 'tiny.jpg', type: 'image/jpeg', data: await solidJpeg(90, 60) });
      const big = await t.app.inject(small.body.output['1024px'].slice(PUBLIC_URL.length));
      assert.deepEqual(
        await sharp(big.rawPayload)
          .metadata()
          .then((m) => [m.width, m.height]),
        [90, 60],
      );
      const listed = await t.call({ token, method: 'photo.getPhotos' });
      assert.equal(listed.body.output[1].name, 'Holiday');
      assert.equal(listed.body.output[0].name, 'tiny', 'the file name is the default photo_name');
    });

    it('rotates by EXIF orientation and strips the metadata', async () => {
      const { status, body } = await upload({
        name: 'portrait.jpg',
        type: 'image/jpeg',
        data: await rotatedJpeg(400, 200),
      });
      assert.equal(status, 200, JSON.stringify(body));
      for (const [size, dimensions] of [
        ['original', [200, 400]],
        ['100px', [50, 100]],
      ] as const) {
        const file = await t.app.inject(body.output[size].slice(PUBLIC_URL.length));
        const metadata = await sharp(file.rawPayload).metadata();
        assert.deepEqual([metadata.width, metadata.height], dimensions, size);
        assert.equal(metadata.orientation, undefined);
        assert.equal(metadata.exif, undefined);
        assert.ok(!file.rawPayload.includes('secret-photographer'));
      }
    });

    it('keeps PNG as PNG and turns GIF, WebP and AVIF into WebP', async () => {
      const png = await sharp({ create: { width: 30, height: 30, channels: 4, background: '#00000080' } })
        .png()
        .toBuffer();
      const fromPng = await upload({ name: 'alpha.png', type: 'image/png', data: png });
      assert.match(fromPng.body.output.original, /\.png$/);
      const gif = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#ff0000' } })
        .gif()
        .toBuffer();
      const fromGif = await upload({ name: 'anim.gif', type: 'image/gif', data: gif });
      assert.equal(fromGif.status, 200);
      assert.match(fromGif.body.output['75px'], /\.webp$/);
      for (const format of ['webp', 'avif'] as const) {
        const image = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#00ff00' } })
          .toFormat(format)
          .toBuffer();
        const uploaded = await upload({ name: `image.${format}`, type: `image/${format}`, data: image });
        assert.equal(uploaded.status, 200, format);
        assert.match(uploaded.body.output.original, /\.webp$/, format);
      }
    });

    it('refuses a truncated JPEG', async () => {
      const jpeg = await solidJpeg(640, 480);
      await assertRefused(
        { name: 'cut.jpg', type: 'image/jpeg', data: jpeg.subarray(0, jpeg.length / 2) },
        422,
        'invalid_image',
      );
    });

    it('refuses a 30000×30000 PNG bomb before decoding it', async () => {
      const bomb = pngBomb(30_000);
      assert.ok(bomb.length < 100_000);
      await assertRefused({ name: 'bomb.png', type: 'image/png', data: bomb }, 413, 'image_too_large');
    });

    it('refuses SVG, HTML named .jpg, and polyglots by content, whatever the name and MIME type say', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9"/></svg>');
      await assertRefused({ name: 'logo.svg', type: 'image/svg+xml', data: svg }, 415, 'unsupported_image_type');
      const html = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
      await assertRefused({ name: 'cat.jpg', type: 'image/jpeg', data: html }, 415, 'unsupported_image_type');
      const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), await solidJpeg(10, 10)]);
      await assertRefused({ name: 'photo.jpg', type: 'image/jpeg', data: pdf }, 415, 'unsupported_image_type');
    });

    it('refuses an empty file and a missing one', async () => {
      await assertRefused({ name: 'empty.jpg', type: 'image/jpeg', data: Buffer.alloc(0) }, 400, 'empty_file');
      const body = await multipartBody({ token, method: 'photo.addPhoto', photo_name: 'nothing' });
      const response = await t.app.inject({ method: 'POST', url: '/api.php', ...body });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().output.error.code, 'missing_parameter');
    });

    it('refuses uploads over the byte limit, declared or streamed', async () => {
      // Far over: refused from Content-Length before the body is read.
      await assertRefused(
        { name: 'huge.jpg', type: 'image/jpeg', data: Buffer.alloc(25 * 1024 * 1024, 0xff) },
        413,
        'payload_too_large',
      );
      // Just over: the multipart stream is cut at the limit.
      await assertRefused(
        { name: 'big.jpg', type: 'image/jpeg', data: Buffer.alloc(2 * 1024 * 1024 + 10_000, 0xff) },
        413,
        'payload_too_large',
      );
    });

    it('needs POST and a valid token before reading the upload', async () => {
      const get = await t.call({ token, method: 'photo.addPhoto' });
      assert.equal(get.status, 405);
      assert.equal(get.body.output.error.code, 'post_required');
      const body = await multipartBody(
        { method: 'photo.addPhoto' },
        { name: 'a.jpg', type: 'image/jpeg', data: await solidJpeg(20, 20) },
      );
      const response = await t.app.inject({ method: 'POST', url: '/api.php?token=spt_nope', ...body });
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().output.error.code, 'invalid_token');
    });
  });
}
