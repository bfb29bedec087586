/**
 * WHOIS (RFC 3912) has no charset negotiation: each server writes in its own. The server's charset
 * comes from the answer table (JPRS writes ISO-2022-JP, some ccTLD servers Latin-1); without one,
 * ISO-2022-JP is recognised by its escape sequences, valid UTF-8 is UTF-8 (ASCII is both), and
 * anything else is read as Windows-1252, which decodes every byte (the WHATWG label for Latin-1).
 */
export function decodeWhoisAnswer(bytes: Uint8Array, charset?: string): string {
  if (charset && !/^utf-?8$/i.test(charset)) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // An unknown label in the table: fall through to detection rather than fail the lookup.
    }
  }
  if (hasIso2022JpEscape(bytes)) return new TextDecoder('iso-2022-jp').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** ESC $ B or ESC $ @ (JIS X 0208) switch an ISO-2022-JP text into Japanese. */
function hasIso2022JpEscape(bytes: Uint8Array): boolean {
  for (let index = 0; index + 2 < bytes.length; index++) {
    if (
      bytes[index] === 0x1b &&
      bytes[index + 1] === 0x24 &&
      (bytes[index + 2] === 0x42 || bytes[index + 2] === 0x40)
    ) {
      return true;
    }
  }
  return false;
}
