/**
 * ISO-2022-JP (RFC 1468), the charset JPRS's WHOIS server answers in. Node decodes it
 * (WHATWG TextDecoder) but cannot encode it, and no small library does; the encoder's table is
 * built from Node's own decoder: every two-byte JIS X 0208 code decoded once, read backwards.
 */
const ESC_JIS_X_0208 = Buffer.from([0x1b, 0x24, 0x42]);
const ESC_ASCII = Buffer.from([0x1b, 0x28, 0x42]);
let table: Map<string, [number, number]> | undefined;

function jisTable(): Map<string, [number, number]> {
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder('iso-2022-jp');
  for (let row = 0x21; row <= 0x7e; row++) {
    for (let cell = 0x21; cell <= 0x7e; cell++) {
      const char = decoder.decode(Buffer.from([...ESC_JIS_X_0208, row, cell, ...ESC_ASCII]));
      if (char.length === 1 && char !== '\ufffd' && !table.has(char)) table.set(char, [row, cell]);
    }
  }
  return table;
}

/** Encodes `text`; a character outside ASCII and JIS X 0208 becomes `?`, as the real server's is unknowable. */
export function encodeIso2022Jp(text: string): Buffer {
  const bytes: number[] = [];
  let inJis = false;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0x3f;
    if (code < 0x80) {
      if (inJis) bytes.push(...ESC_ASCII);
      inJis = false;
      bytes.push(code);
      continue;
    }
    const jis = jisTable().get(char);
    if (!jis) {
      if (inJis) bytes.push(...ESC_ASCII);
      inJis = false;
      bytes.push(0x3f);
      continue;
    }
    if (!inJis) bytes.push(...ESC_JIS_X_0208);
    inJis = true;
    bytes.push(...jis);
  }
  if (inJis) bytes.push(...ESC_ASCII);
  return Buffer.from(bytes);
}
