import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sniffImageType } from '../src/photo-source.ts';
import { retryAfterSeconds } from '../src/transport.ts';

describe('Retry-After parsing', () => {
  it('reads seconds and HTTP dates, and ignores what is neither', () => {
    assert.equal(retryAfterSeconds('120'), 120);
    assert.equal(retryAfterSeconds(' 0 '), 0);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const seconds = retryAfterSeconds(inTenSeconds)!;
    assert.ok(seconds >= 9 && seconds <= 10, `about 10 s, got ${seconds}`);
    assert.equal(retryAfterSeconds(new Date(Date.now() - 60_000).toUTCString()), 0, 'a past date means now');
    assert.equal(retryAfterSeconds(null), undefined);
    assert.equal(retryAfterSeconds('soon'), undefined);
    assert.equal(retryAfterSeconds('-5'), undefined);
  });
});

describe('image type sniffing for uploads', () => {
  const bytes = (...values: Array<number | string>) =>
    Uint8Array.from(
      values.flatMap((value) => (typeof value === 'string' ? [...value].map((c) => c.charCodeAt(0)) : [value])),
    );
  it('labels JPEG, PNG, GIF, WebP and AVIF by their first bytes', () => {
    assert.equal(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0)), 'image/jpeg');
    assert.equal(sniffImageType(bytes(0x89, 'PNG\r\n', 0x1a, '\n')), 'image/png');
    assert.equal(sniffImageType(bytes('GIF89a')), 'image/gif');
    assert.equal(sniffImageType(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 ')), 'image/webp');
    assert.equal(sniffImageType(bytes(0, 0, 0, 0x1c, 'ftypavif')), 'image/avif');
    assert.equal(sniffImageType(bytes('hello')), 'application/octet-stream');
    assert.equal(sniffImageType(new Uint8Array()), 'application/octet-stream');
  });
});
