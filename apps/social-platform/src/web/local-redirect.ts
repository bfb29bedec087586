/** Longer return paths are not ones our pages make: they go to the home page. */
const MAX_INPUT_LENGTH = 2048;

/**
 * The one judge of every redirect target that comes from a request (`next` of the log-in form,
 * `back` of the friend buttons …): a path of this site, or `/`.
 *
 * The input is resolved against the site's own origin by the WHATWG URL parser, the parser a
 * browser applies to the Location header: it drops tabs and newlines, reads `\` as `/`, resolves
 * dot segments and absolute URLs. Only a result on `origin` whose path starts with one `/` is
 * kept, and the redirect goes to that result (`pathname + search + hash`), never to the raw input:
 * `/.//evil.example` resolves to the path `//evil.example`, which a browser reads as another host,
 * so a check made before resolving cannot be trusted.
 */
export function localRedirectPath(input: unknown, origin: string): string {
  if (typeof input !== 'string' || input === '' || input.length > MAX_INPUT_LENGTH) return '/';
  let resolved: URL;
  try {
    resolved = new URL(input, origin);
  } catch {
    return '/';
  }
  if (resolved.origin !== origin || !resolved.pathname.startsWith('/') || resolved.pathname.startsWith('//')) {
    return '/';
  }
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
