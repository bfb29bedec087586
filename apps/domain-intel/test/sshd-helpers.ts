import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { freeLoopbackPort, tempDir } from '@repo/server-kit/testing';
import ssh2 from 'ssh2';

/** Debian's OpenSSH server (apt-get install -y openssh-server). */
export const SSHD = '/usr/sbin/sshd';
/** The privilege separation directory compiled into Debian's sshd; the init system makes it, a container may not. */
const PRIVSEP_DIR = '/run/sshd';

/** Why the SFTP tests cannot run here, or false. */
export function sshdSkipReason(): string | false {
  if (!existsSync(SSHD)) {
    const reason = `${SSHD} is not installed (apt-get install -y openssh-server): the SFTP delivery tests are SKIPPED`;
    process.stderr.write(`\n!!! ${reason}\n\n`);
    return reason;
  }
  if (!existsSync(PRIVSEP_DIR)) {
    if (process.getuid?.() !== 0) return `${PRIVSEP_DIR} is missing and only root can make it`;
    mkdirSync(PRIVSEP_DIR, { recursive: true, mode: 0o755 });
  }
  return false;
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`sshd exited (${child.exitCode}): ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sshd did not listen on ${port}: ${output()}`);
}

export interface TestSshd {
  port: number;
  /** The user the delivery signs in as (the one running the tests). */
  user: string;
  /** Where deliveries are dropped. */
  dropDir: string;
  /** `sftp://user@127.0.0.1:port/dropDir`. */
  url: string;
  authorize(publicKeyLine: string): void;
  /** Restarts the server with a new host key (a changed server, or a man in the middle). */
  replaceHostKey(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real OpenSSH server on a loopback port for one test file: a temporary configuration, host
 * key and authorized_keys, key authentication only, the internal SFTP subsystem. Root may sign
 * in with a key (the tests run as root here); StrictModes is off for the temporary directory.
 */
export async function startSshd(): Promise<TestSshd> {
  const temp = tempDir('sshd');
  const dir = temp.dir;
  const dropDir = path.join(dir, 'drop');
  mkdirSync(dropDir);
  const port = await freeLoopbackPort();
  const user = userInfo().username;
  const hostKey = path.join(dir, 'host_ed25519');
  const authorizedKeys = path.join(dir, 'authorized_keys');
  const keys: string[] = [];
  const writeHostKey = () => writeFileSync(hostKey, ssh2.utils.generateKeyPairSync('ed25519').private, { mode: 0o600 });
  writeHostKey();
  writeFileSync(authorizedKeys, '', { mode: 0o600 });
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${authorizedKeys}`,
      'StrictModes no',
      'UsePAM no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'Subsystem sftp internal-sftp',
      'LogLevel ERROR',
    ].join('\n'),
  );

  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    output = '';
    child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await waitForPort(port, child, () => output);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    port,
    user,
    dropDir,
    url: `sftp://${user}@127.0.0.1:${port}${dropDir}`,
    authorize(publicKeyLine) {
      keys.push(publicKeyLine);
      writeFileSync(authorizedKeys, `${keys.join('\n')}\n`, { mode: 0o600 });
    },
    async replaceHostKey() {
      await stop();
      writeHostKey();
      await start();
    },
    stop,
    start,
    async close() {
      await stop();
      temp.remove();
    },
  };
}
