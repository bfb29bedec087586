import type { ParsedDomain } from '../rdap/parse.ts';
import { answerEntries } from './answer-lines.ts';
import { asciiName, namesInAnswer, readWhoisRecord } from './record.ts';
import { RECORD_LABELS } from './record-labels.ts';
import { type WhoisServerProfile, whoisServerProfile } from './server-profiles.ts';

/**
 * What a port-43 WHOIS answer says about the name asked. `not_found` (the name is free) is the one
 * reading a mistake would turn into a false `available`, so it needs the TLD's authoritative
 * server's own "no such domain" text (data/whois-answers.json, read off real answers), and no
 * sign of a record of the name beside it. Everything that is neither that, nor a record of the
 * name, nor the server's reserved text is `unknown` with a reason.
 */
export type WhoisAnswerReading =
  | { kind: 'registered'; record: ParsedDomain }
  | { kind: 'not_found' }
  | { kind: 'reserved'; message: string }
  | { kind: 'unknown'; reason: WhoisUnknownReason; message: string };

export type WhoisUnknownReason =
  | 'rate_limited'
  | 'unrecognized_answer'
  | 'empty_answer'
  | 'referral'
  | 'no_pattern_table';

export interface WhoisAnswer {
  /** The TLD's authoritative WHOIS host as IANA names it (whose patterns apply), even when another address was asked. */
  server: string;
  /** The ASCII name asked. */
  name: string;
  /** The answer, decoded. */
  text: string;
}

type PatternKind = 'not_found' | 'rate_limited' | 'reserved';

const compiled = new Map<string, Record<PatternKind, RegExp[]>>();

function patternsOf(server: string, profile: WhoisServerProfile): Record<PatternKind, RegExp[]> {
  let patterns = compiled.get(server);
  if (!patterns) {
    const compile = (sources: string[] | undefined) => (sources ?? []).map((source) => new RegExp(source, 'm'));
    patterns = {
      not_found: compile(profile.not_found),
      rate_limited: compile(profile.rate_limited),
      reserved: compile(profile.reserved),
    };
    compiled.set(server, patterns);
  }
  return patterns;
}

/** The text of the first pattern that matches. */
function firstMatch(patterns: RegExp[], text: string): string | null {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match) return match[0];
  }
  return null;
}

/** A matched text for a message: one line, shortened. */
const quoted = (text: string) => text.trim().replace(/\s+/g, ' ').slice(0, 200);

/** The domain names a matched text mentions (`No match for "EXAMPLE.COM".`, `example.nl is free`). */
function namesMentioned(text: string): string[] {
  return [...text.matchAll(/[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi)].flatMap((match) => asciiName(match[0]) ?? []);
}

const unknown = (reason: WhoisUnknownReason, message: string): WhoisAnswerReading => ({
  kind: 'unknown',
  reason,
  message,
});

export function readWhoisAnswer({ server, name, text }: WhoisAnswer): WhoisAnswerReading {
  const host = server.toLowerCase();
  const asked = asciiName(name) ?? name.trim().toLowerCase();
  const answer = text.replace(/\r\n?/g, '\n');
  if (answer.trim() === '') return unknown('empty_answer', `${host} sent an empty answer.`);
  const profile = whoisServerProfile(host);
  const patterns = profile ? patternsOf(host, profile) : null;

  // A throttling text comes first: AFNIC's ends with its "No entries found" line.
  const throttled = patterns ? firstMatch(patterns.rate_limited, answer) : null;
  if (throttled) return unknown('rate_limited', `${host}: ${quoted(throttled)}`);

  const entries = answerEntries(answer);
  const named = namesInAnswer(entries);
  if (named.length > 0 && !named.includes(asked)) {
    return unknown('unrecognized_answer', `${host} answered about ${named[0]}, not ${asked}.`);
  }

  const reserved = patterns ? firstMatch(patterns.reserved, answer) : null;
  if (reserved) return { kind: 'reserved', message: `${host}: ${quoted(reserved)}` };

  const record = readWhoisRecord(entries, asked, answer);
  const isRecord =
    named.includes(asked) &&
    (record.created_at !== null || record.registrar?.name != null || record.nameservers.length > 0);

  const free = patterns ? firstMatch(patterns.not_found, answer) : null;
  if (free) {
    if (isRecord) {
      return unknown('unrecognized_answer', `${host} says "${quoted(free)}" beside a record of ${asked}.`);
    }
    // The free answer must be about the name asked when it names one.
    const other = namesMentioned(free).find((mentioned) => mentioned !== asked);
    if (other) return unknown('unrecognized_answer', `${host} says "${quoted(free)}" about ${other}, not ${asked}.`);
    return { kind: 'not_found' };
  }
  if (isRecord) return { kind: 'registered', record };

  const referral = referralServer(entries);
  if (referral) return unknown('referral', `${host} refers to ${referral} and holds no record of ${asked}.`);
  if (!profile)
    return unknown('no_pattern_table', `No answer patterns for ${host}: its answer is not a record of ${asked}.`);
  return unknown(
    'unrecognized_answer',
    `${host} gave an answer that is neither its "no such domain" text nor a record of ${asked}.`,
  );
}

/** Another WHOIS server the answer points to (`refer:`, `Registrar WHOIS Server:`, `whois:`). */
function referralServer(entries: ReturnType<typeof answerEntries>): string | null {
  for (const label of RECORD_LABELS.referral) {
    for (const entry of entries) {
      if (entry.key !== label) continue;
      const host = asciiName(entry.value);
      if (host && entry.value.trim().split(/\s+/).length === 1) return host;
    }
  }
  return null;
}
