import { randomUUID } from 'node:crypto';
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

/** A fresh request id, for answers written before any request could be read (a broken request line). */
export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}
