import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/**
 * A browser-like client of the HTML forms (dashboard, sign-up) over app.inject: keeps cookies and reads the CSRF
 * token from the last page, the way a person's browser would submit the forms.
 */
export class DashboardBrowser {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly extraHeaders: Record<string, string> = {},
    /** The client address the requests come from (per-address limits). */
    private readonly remoteAddress?: string,
  ) {}

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.#remember(await this.app.inject({ method: 'GET', url, headers: this.#headers(), ...this.#from() }));
  }

  /** Posts a form with the CSRF token of the last page unless `_csrf` is given. */
  async post(url: string, form: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams({ ...(this.csrfToken ? { _csrf: this.csrfToken } : {}), ...form });
    return this.#remember(
      await this.app.inject({
        method: 'POST',
        url,
        headers: { ...this.#headers(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: body.toString(),
        ...this.#from(),
      }),
    );
  }

  async signIn(email: string, key: string): Promise<LightMyRequestResponse> {
    await this.get('/dashboard');
    return this.post('/dashboard/sign-in', { email, key });
  }

  #from(): { remoteAddress?: string } {
    return this.remoteAddress ? { remoteAddress: this.remoteAddress } : {};
  }

  #headers(): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return { ...this.extraHeaders, ...(cookie ? { cookie } : {}) };
  }

  #remember(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const cookie of response.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const expired = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
    if (token) this.csrfToken = token;
    return response;
  }
}

/** The text of an element marked `data-testid="…"`. */
export function testId(html: string, id: string): string | undefined {
  return new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
}

/** The JSON a page embeds for its charts. */
export function embeddedJson<T>(html: string, id: string): T {
  const match = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  if (!match) throw new Error(`no #${id} in the page`);
  return JSON.parse(match[1]!) as T;
}
