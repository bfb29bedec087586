import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/**
 * A tiny browser for app.inject: keeps cookies between requests and reads the form token
 * from the last page, so tests drive the pages the way a person's browser would.
 */
export class WebClient {
  readonly cookies = new Map<string, string>();
  lastPage = '';

  constructor(private readonly app: FastifyInstance) {}

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.#send({ method: 'GET', url });
  }

  /** Posts a url-encoded form; the page's form token is added unless `_csrf` is given. */
  async post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams({ _csrf: this.csrfToken(), ...form });
    return this.#send({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
  }

  /** Posts a multipart form with one file; the form token goes in the query, as the pages do. */
  async upload(
    url: string,
    file: { field: string; name: string; type: string; data: Buffer },
    fields: Record<string, string> = {},
    csrfToken = this.csrfToken(),
  ): Promise<LightMyRequestResponse> {
    const boundary = `----web-client-${Math.random().toString(16).slice(2)}`;
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(fields)) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    }
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    );
    const separator = url.includes('?') ? '&' : '?';
    return this.#send({
      method: 'POST',
      url: `${url}${separator}_csrf=${encodeURIComponent(csrfToken)}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat(parts),
    });
  }

  /** The form token of the last page rendered. */
  csrfToken(): string {
    const match = /name="_csrf" value="([^"]+)"|_csrf=([^"&]+)"/.exec(this.lastPage);
    if (!match) throw new Error('The last page has no form token');
    return decodeURIComponent(match[1] ?? match[2] ?? '');
  }

  async #send(request: {
    method: 'GET' | 'POST';
    url: string;
    headers?: Record<string, string>;
    payload?: string | Buffer;
  }): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.inject({
      method: request.method,
      url: request.url,
      headers: { ...request.headers, ...(cookie ? { cookie } : {}) },
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
    for (const set of response.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const expired = set.maxAge === 0 || (set.expires !== undefined && set.expires.getTime() <= Date.now());
      if (expired || set.value === '') this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    if (response.headers['content-type']?.toString().startsWith('text/html')) this.lastPage = response.body;
    return response;
  }
}

/** Signs up through the form and returns the logged-in client, on the page it was sent to. */
export async function signUp(
  app: FastifyInstance,
  person: { userName: string; fullName: string; email?: string; password?: string },
): Promise<WebClient> {
  const client = new WebClient(app);
  await client.get('/signup');
  const response = await client.post('/signup', {
    fullName: person.fullName,
    userName: person.userName,
    email: person.email ?? `${person.userName}@example.com`,
    password: person.password ?? 'correct horse battery',
    countryIso: '',
    gender: '',
  });
  if (response.statusCode !== 303) throw new Error(`sign-up failed with ${response.statusCode}: ${response.body}`);
  // Follow the redirect as a browser would, so the client holds a logged-in page's form token.
  await client.get(String(response.headers.location));
  return client;
}
