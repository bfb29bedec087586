import { routeOf } from '../tld-routing.ts';
import type { SimDomain, SimWorld } from '../world.ts';
import { encodeAnswer, parseDomainQuery, type WhoisCharset, type WhoisFormat, type WhoisQuery } from './format.ts';
import { type SimWhoisServerId, whoisFormatOf } from './registries.ts';
import { renderTemplate } from './render.ts';

export type WhoisVerdict = 'registered' | 'free' | 'reserved' | 'invalid';

export interface WhoisAnswer {
  verdict: WhoisVerdict;
  query?: WhoisQuery;
  bytes: Buffer;
}

/**
 * What a simulated WHOIS server answers a query line with, from the world: the registered
 * answer for a name it holds, the registry's reserved answer for a name on its reserved list
 * (where it has one), else its "no such domain" answer, as the real server does for any name
 * it does not hold; a line it cannot read gets its error answer, or none.
 */
export function answerQuery(world: SimWorld, server: SimWhoisServerId, line: string): WhoisAnswer | undefined {
  const format = whoisFormatOf(server);
  const query = (format.parse ?? parseDomainQuery)(line);
  if (!query) {
    if (!format.invalid) return undefined;
    return {
      verdict: 'invalid',
      bytes: encode(format, format.invalid(line), line.trim().toLowerCase(), world, undefined, format.charset),
    };
  }
  const { name } = query;
  const domain = world.get(name);
  const charset = query.charset ?? format.charset;
  if (world.isReserved(name) && format.reserved) {
    return {
      verdict: 'reserved',
      query,
      bytes: encode(format, format.reserved(query), name, world, undefined, charset),
    };
  }
  if (domain && routeOf(domain.tld)?.whois === server && !world.isReserved(name)) {
    const text = format.registered(query);
    return { verdict: 'registered', query, bytes: encode(format, text, name, world, domain, charset) };
  }
  return { verdict: 'free', query, bytes: encode(format, format.free(query), name, world, undefined, charset) };
}

/** The registry's throttling answer to `line`, or undefined where the real server drops the connection instead. */
export function throttledAnswer(world: SimWorld, server: SimWhoisServerId, line: string): Buffer | undefined {
  const format = whoisFormatOf(server);
  if (!format.throttled) return undefined;
  const query = (format.parse ?? parseDomainQuery)(line) ?? { name: line.trim().toLowerCase() };
  return encode(format, format.throttled(query), query.name, world, undefined, query.charset ?? format.charset);
}

function encode(
  format: WhoisFormat,
  template: string,
  name: string,
  world: SimWorld,
  domain: SimDomain | undefined,
  charset: WhoisCharset,
): Buffer {
  const text = renderTemplate(template, {
    domain,
    name,
    now: world.now(),
    timeZone: format.timeZone,
    state: domain && format.state ? format.state(domain) : undefined,
  });
  return encodeAnswer(text.replaceAll('\n', format.eol), charset);
}
