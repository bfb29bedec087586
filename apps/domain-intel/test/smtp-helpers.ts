import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole RFC 5322 message as the server received it. */
  raw: string;
}

export interface TestSmtpServer {
  /** smtp://user:password@127.0.0.1:<port> */
  url: string;
  received: ReceivedMail[];
  /** Resolves with the next mail the server accepts (or one already waiting). */
  nextMail(): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** Recipients the server refuses with 550, like a real server for an unknown mailbox. */
  refuse?: (address: string) => boolean;
}

/**
 * A real SMTP server (the `smtp-server` package) on a loopback port: it requires the
 * credentials in its URL (PLAIN/LOGIN), speaks plain SMTP (STARTTLS off), and keeps what it receives.
 */
export async function startSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  const user = 'mailer';
  const password = 'p@ss word';
  const received: ReceivedMail[] = [];
  const waiting: Array<(mail: ReceivedMail) => void> = [];
  let taken = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) return callback(null, { user });
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.(address.address)) {
        return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      }
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(mail);
        const waiter = waiting.shift();
        if (waiter) {
          taken++;
          waiter(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    received,
    nextMail() {
      if (taken < received.length) return Promise.resolve(received[taken++] as ReceivedMail);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The value of one header of a raw message (unfolded), or undefined. */
export function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((entry) => entry.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/**
 * The text of a single-part mail as its reader sees it: the body after the headers, undone from
 * its transfer encoding (nodemailer picks quoted-printable or base64 when lines are long).
 */
export function mailText(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const encoding = (headerOf(raw, 'Content-Transfer-Encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The first link in a mail's text that starts with `prefix` (e.g. the service's /signup/confirm). */
export function linkIn(raw: string, pathPrefix: string): URL {
  const match = new RegExp(`https?://\\S+${pathPrefix.replace(/[/?]/g, '\\$&')}\\S*`).exec(mailText(raw));
  if (!match) throw new Error(`no ${pathPrefix} link in the mail:\n${mailText(raw)}`);
  return new URL(match[0]);
}
