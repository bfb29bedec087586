import type { Config } from '../config.ts';

/**
 * The address people reach this service at, for links in mails: PUBLIC_URL, else HOST:PORT.
 * Never the request's Host header, which whoever sends the request chooses: a sign-up for
 * someone else's address with `Host: evil.example` would otherwise mail them a link to evil.example.
 */
export function publicUrlOf(config: Config): string {
  return config.PUBLIC_URL?.replace(/\/+$/, '') ?? `http://${config.HOST}:${config.PORT}`;
}
