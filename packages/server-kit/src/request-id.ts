import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Honours a caller's X-Request-Id when it is a safe token (so a request can be traced
 * across services), otherwise makes a new one. Never echoes arbitrary header content.
 */
export function genReqId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming)) return incoming;
  return newRequestId();
}

const ID_BYTES = 16;
/** Random bytes for 256 ids, filled at once: one call into the random source per 256 requests. */
const pool = Buffer.alloc(ID_BYTES * 256);
let next = pool.length;

/**
 * A fresh request id, `req_` and 32 hex digits (128 random bits), also for answers written before any
 * request could be read (a broken request line). Hex of pooled random bytes: randomUUID (itself pooled)
 * and removing its dashes cost several times as much, on every request without an X-Request-Id.
 */
export function newRequestId(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const id = `req_${pool.toString('hex', next, next + ID_BYTES)}`;
  next += ID_BYTES;
  return id;
}
