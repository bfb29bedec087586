import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SimWorld } from '../world.ts';
import type { CzdsSimControl } from './control.ts';
import { renderZoneFile } from './render.ts';

interface RenderedZone {
  body: Buffer;
  etag: string;
  lastModified: string;
}

/** POST /api/authenticate as ICANN's account API answers it (mounted under /czds-auth). */
export const czdsAuthSimPlugin: FastifyPluginAsync<{ control: CzdsSimControl }> = async (app, { control }) => {
  app.post('/api/authenticate', async (request, reply) => {
    const body = request.body as { username?: unknown; password?: unknown } | undefined;
    if (typeof body?.username !== 'string' || typeof body.password !== 'string') {
      return reply.code(400).send({ message: 'username and password are required' });
    }
    if (body.username !== control.username || body.password !== control.password) {
      control.counts.failedAuthentications++;
      return reply.code(401).send({ message: 'Invalid username or password' });
    }
    control.counts.authentications++;
    return { accessToken: control.issueToken(), message: 'Authentication Successful' };
  });
};

/**
 * The CZDS API (mounted under /czds): download links and gzip zone files rendered from the
 * world for its current UTC day, with Content-Length, ETag and Range support.
 */
export const czdsApiSimPlugin: FastifyPluginAsync<{ control: CzdsSimControl; world: SimWorld }> = async (
  app,
  { control, world },
) => {
  const rendered = new Map<string, RenderedZone>();
  const zoneOf = (tld: string): RenderedZone => {
    const day = new Date(world.now()).toISOString().slice(0, 10);
    const key = `${tld}/${day}`;
    let zone = rendered.get(key);
    if (!zone) {
      // A zone is published once a day: later changes to the world show up in the next day's file.
      const body = gzipSync(renderZoneFile(world, tld, day));
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
      zone = { body, etag, lastModified: new Date(`${day}T00:00:00Z`).toUTCString() };
      rendered.set(key, zone);
    }
    return zone;
  };

  const authorized = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
    if (control.isValidToken(token)) return true;
    void reply.code(401).send({ message: 'Authentication failed: missing or expired token' });
    return false;
  };

  app.get('/downloads/links', async (request, reply) => {
    if (!authorized(request, reply)) return reply;
    control.counts.linkRequests++;
    const base = `${request.protocol}://${request.host}${app.prefix}`;
    return control.tlds.map((tld) => `${base}/downloads/${tld}.zone`);
  });

  app.get<{ Params: { file: string } }>('/downloads/:file', async (request, reply) => {
    if (!authorized(request, reply)) return reply;
    const tld = /^([a-z0-9-]+)\.zone$/.exec(request.params.file)?.[1];
    if (!tld || !control.tlds.includes(tld)) return reply.code(404).send({ message: 'Zone not found or not approved' });

    const fault = control.takeFault();
    if (fault?.kind === 'status') return reply.code(fault.status).send({ message: 'Service unavailable' });
    const zone = zoneOf(tld);
    if (request.headers['if-match'] && request.headers['if-match'] !== zone.etag) {
      return reply.code(412).send({ message: 'The zone file changed' });
    }
    let body = zone.body;
    if (fault?.kind === 'truncate') body = body.subarray(0, Math.min(fault.keepBytes, body.length - 1));
    if (fault?.kind === 'corrupt') body = corrupted(body);

    const range = parseRange(request.headers.range, body.length);
    if (range === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${body.length}`).send();
    }
    const { start, end } = range ?? { start: 0, end: body.length - 1 };
    reply
      .header('content-type', 'application/x-gzip')
      .header('content-disposition', `attachment;filename=${tld}.txt.gz`)
      .header('accept-ranges', 'bytes')
      .header('etag', zone.etag)
      .header('last-modified', zone.lastModified)
      .header('content-length', end - start + 1);
    if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${body.length}`);
    if (end === body.length - 1) control.countDownload(tld);

    const slice = body.subarray(start, end + 1);
    if (fault?.kind === 'interrupt') {
      // Headers promise the whole body; the socket dies after part of it.
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(reply.statusCode, reply.getHeaders() as Record<string, string>);
      raw.write(slice.subarray(0, Math.min(fault.afterBytes, slice.length - 1)), () => request.raw.socket.destroy());
      return reply;
    }
    return reply.send(slice);
  });
};

/** `bytes=N-` or `bytes=N-M` (the forms download clients send); anything else serves the whole file. */
function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d+)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Flips bytes past the gzip header so inflating fails (or the CRC check does). */
function corrupted(body: Buffer): Buffer {
  const copy = Buffer.from(body);
  for (let i = 12; i < copy.length - 8; i += 5) copy[i] = copy[i]! ^ 0xa5;
  return copy;
}
