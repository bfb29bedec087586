import { NetworkError, TimeoutError } from './errors.ts';

/** Retrying a 429 after the server's Retry-After. Off unless the caller opts in. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** A longer Retry-After is not waited out: the 429 is thrown at once (default 60). */
  maxWaitSeconds?: number;
  /** Called before each wait, e.g. to log it. */
  onRetry?: (retry: { attempt: number; waitSeconds: number; error: Error }) => void;
}

export interface ClientOptions {
  /** Address of the service without the version segment, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** Per attempt, ms (default 30 000). 0 disables. */
  timeoutMs?: number;
  /** Retry 429 answers after Retry-After (default: no retry). */
  retry?: RetryPolicy | false;
  /** A fetch of your own (proxies, tests); default the global fetch. */
  fetch?: typeof fetch;
  /** Headers sent with every request (e.g. a User-Agent in Node). */
  headers?: Record<string, string>;
}

/** Options of one call; they override the client's. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  retry?: RetryPolicy | false;
}

export interface Request {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** Made anew for every attempt (a stream-backed body can be sent once only). */
  body?: () => BodyInit;
  /** Sees every answer, error statuses included, before its body is judged. */
  onResponse?: (response: Response) => void;
}

/** Turns an answer with an error status into the API's own error (the body is already read). */
export type ErrorReader = (response: Response, body: unknown) => Error & { status: number; code: string };

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRIES = 2;
const DEFAULT_MAX_WAIT_SECONDS = 60;

/** fetch with a timeout per attempt, the caller's abort signal and the 429 retry policy. */
export class Transport {
  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;

  constructor(
    private readonly options: ClientOptions,
    private readonly readError: ErrorReader,
  ) {
    if (!/^https?:\/\//i.test(options.baseUrl)) {
      throw new TypeError(`baseUrl must be an http(s) URL; got "${options.baseUrl}".`);
    }
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    // Bound so that a browser's fetch is not called with the client as `this`.
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  url(path: string, query: Request['query'] = {}): string {
    const url = new URL(this.#baseUrl + path);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  /** Sends the request and returns the answer with its parsed JSON body; error statuses throw. */
  async send(request: Request, call: CallOptions = {}): Promise<{ response: Response; body: unknown }> {
    const retry = call.retry ?? this.options.retry ?? false;
    const maxRetries = retry ? (retry.maxRetries ?? DEFAULT_RETRIES) : 0;
    for (let attempt = 0; ; attempt++) {
      const { response, body } = await this.#attempt(request, call);
      request.onResponse?.(response);
      if (response.ok) return { response, body };
      const error = this.readError(response, body);
      const waitSeconds = retryAfterSeconds(response.headers.get('retry-after'));
      const maxWait = retry ? (retry.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS) : 0;
      if (!retry || response.status !== 429 || attempt >= maxRetries || waitSeconds === undefined) throw error;
      if (waitSeconds > maxWait) throw error;
      retry.onRetry?.({ attempt: attempt + 1, waitSeconds, error });
      await sleep(waitSeconds * 1000, call.signal);
    }
  }

  /**
   * The answer's body as a stream, for downloads read while they arrive: the timeout covers the
   * wait for the answer's headers only, the caller's signal the whole read; error statuses throw.
   */
  async stream(request: Request, call: CallOptions = {}): Promise<ReadableStream<Uint8Array>> {
    call.signal?.throwIfAborted();
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = new AbortController();
    const timer = timeoutMs > 0 ? setTimeout(() => deadline.abort(new TimeoutError(timeoutMs)), timeoutMs) : undefined;
    const signal = call.signal ? anySignal([call.signal, deadline.signal]) : deadline.signal;
    let response: Response;
    try {
      response = await this.#fetch(this.url(request.path, request.query), {
        method: request.method,
        headers: { ...this.options.headers, ...request.headers },
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new NetworkError(`Could not reach ${this.#baseUrl}: ${(error as Error).message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    request.onResponse?.(response);
    if (!response.ok || !response.body) throw this.readError(response, parseJson(await response.text()));
    return response.body;
  }

  async #attempt(request: Request, call: CallOptions): Promise<{ response: Response; body: unknown }> {
    call.signal?.throwIfAborted();
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = new AbortController();
    const timer = timeoutMs > 0 ? setTimeout(() => deadline.abort(new TimeoutError(timeoutMs)), timeoutMs) : undefined;
    const signal = call.signal ? anySignal([call.signal, deadline.signal]) : deadline.signal;
    try {
      const response = await this.#fetch(this.url(request.path, request.query), {
        method: request.method,
        headers: { accept: 'application/json', ...this.options.headers, ...request.headers },
        body: request.body?.(),
        signal,
      });
      // The body is read under the same deadline: a server that stalls mid-answer times out too.
      const text = await response.text();
      return { response, body: parseJson(text) };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new NetworkError(`Could not reach ${this.#baseUrl}: ${(error as Error).message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Retry-After in seconds: a number of seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  // Every HTTP-date form starts with the day name ("Sun, 06 Nov 1994 …"); anything else is not one.
  if (!/^[A-Za-z]{3,9},? /.test(header.trim())) return undefined;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** AbortSignal.any where it exists (Node 20.3+, current browsers), linked by hand elsewhere. */
function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
