import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { FilterBatchData } from '@repo/contracts/domain-intel';
import { type AddressPolicy, guardedLookup } from '@repo/webhooks/address-guard';
import SftpClient from 'ssh2-sftp-client';
import { CSV_HEADER, toCsvLine } from '../../feed/feed-row.ts';
import type { MessageBody, MessageRow } from '../outbox.ts';
import { parseSftpAddress, type TargetRow } from '../targets.ts';

export interface SftpSenderOptions extends AddressPolicy {
  timeoutMs: number;
  /** Pins the server's host key at the first connection (trust on first use). */
  pinHostKey(targetId: string, fingerprint: string): Promise<void>;
}

const fingerprintOf = (key: Buffer) => `SHA256:${createHash('sha256').update(key).digest('base64')}`;

/** The host's first address that the SSRF guard allows (the same rules as RDAP and webhooks). */
function resolveAllowed(host: string, policy: AddressPolicy): Promise<string> {
  return new Promise((resolve, reject) => {
    guardedLookup(policy)(host, {}, (error, address) => (error ? reject(error) : resolve(address as string)));
  });
}

/**
 * Drops each filter batch as a CSV file on the target's SFTP server, signing in with the key
 * pair made for the target. The file is written under a `.part` name and renamed into place,
 * so a reader never sees half a file; its name holds the filter, sequence and batch id, so a
 * redelivery replaces the same file instead of adding a second one.
 */
export class SftpSender {
  constructor(private readonly options: SftpSenderOptions) {}

  async send(target: TargetRow, message: MessageRow): Promise<void> {
    if (message.type !== 'filter.batch') throw new Error(`SFTP targets take filter batches, not ${message.type}.`);
    const { data } = JSON.parse(message.payload) as MessageBody<FilterBatchData>;
    const address = parseSftpAddress(target.address);
    const host = await resolveAllowed(address.host, this.options);
    const name = `${data.filter_id}-${String(data.sequence).padStart(6, '0')}-${data.batch_id}.csv`;
    const finalPath = posix.join(address.directory, name);
    const partPath = `${finalPath}.part`;
    const csv = `${[CSV_HEADER.join(','), ...data.rows.map(toCsvLine)].join('\n')}\n`;
    let seenKey: string | null = null;
    const client = new SftpClient();
    try {
      await client.connect({
        host,
        port: address.port,
        username: address.username,
        privateKey: target.secret!,
        readyTimeout: this.options.timeoutMs,
        hostVerifier: (key: Buffer) => {
          seenKey = fingerprintOf(key);
          return target.pinned_host_key === null || target.pinned_host_key === seenKey;
        },
      });
      if (target.pinned_host_key === null && seenKey) await this.options.pinHostKey(target.id, seenKey);
      await client.put(Buffer.from(csv), partPath);
      await client.posixRename(partPath, finalPath);
    } catch (error) {
      if (target.pinned_host_key !== null && seenKey !== null && seenKey !== target.pinned_host_key) {
        throw new Error(`The SFTP server's host key changed (${seenKey}, pinned ${target.pinned_host_key}); refused.`);
      }
      throw error;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
