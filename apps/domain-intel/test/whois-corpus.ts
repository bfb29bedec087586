import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The real port-43 WHOIS answers (test/fixtures/real/whois/<server>/<case>.txt), read as the client decodes them. */
export const WHOIS_CORPUS = fileURLToPath(new URL('./fixtures/real/whois/', import.meta.url));

/** `<server>/<case>.txt` of every recorded answer. */
export function whoisCorpusFiles(): string[] {
  return readdirSync(WHOIS_CORPUS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((server) => readdirSync(`${WHOIS_CORPUS}${server.name}`).map((file) => `${server.name}/${file}`))
    .sort();
}

/** Every recorded answer is ASCII or UTF-8 (SOURCES.md records the charset of each). */
export function whoisAnswer(file: string): string {
  return readFileSync(`${WHOIS_CORPUS}${file}`, 'utf8');
}

/** The files SOURCES.md lists, by their `<server>/<case>.txt`. */
export function whoisFilesWithSources(): Set<string> {
  const sources = readFileSync(`${WHOIS_CORPUS}SOURCES.md`, 'utf8');
  return new Set([...sources.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1] ?? ''));
}
