import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import {
  type CreatedDeliveryTarget,
  type DeliveryTarget,
  TARGET_KINDS,
  type TargetKind,
} from '@repo/contracts/domain-intel';
import type { Clock } from '@repo/server-kit';
import {
  type AddressPolicy,
  assertAllowedUrl,
  BlockedAddressError,
  isAllowedAddress,
} from '@repo/webhooks/address-guard';
import { type HostResolver, refusedAddressOf, resolveWithSystem } from '@repo/webhooks/target-host';
import type { Kysely } from 'kysely';
import ssh2 from 'ssh2';
import type { Caller } from '../accounts/caller.ts';
import { normalizeEmail } from '../accounts/email.ts';
import { newId } from '../accounts/ids.ts';
import { planRequired } from '../accounts/plan-required.ts';
import type { DB, DeliveryTargetTable } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';

export type TargetRow = DeliveryTargetTable;

const sshUtils = ssh2.utils;

/** The parts of an sftp:// target address. */
export interface SftpAddress {
  host: string;
  port: number;
  username: string;
  directory: string;
}

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const invalidTarget = (message: string) => appError('invalid_target', message, { details: { parameter: 'address' } });

export function parseSftpAddress(address: string): SftpAddress {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw invalidTarget(`"${address.slice(0, 200)}" is not a URL; use sftp://user@host:port/directory.`);
  }
  if (url.protocol !== 'sftp:') throw invalidTarget('An SFTP target is an sftp://user@host:port/directory URL.');
  if (!url.username) throw invalidTarget('The SFTP URL needs a user name (sftp://user@host/…).');
  if (url.password) throw invalidTarget('Put no password in the SFTP URL: we sign in with the key we give you.');
  if (url.search || url.hash) throw invalidTarget('The SFTP URL takes no query or fragment.');
  const directory = decodeURIComponent(url.pathname) || '/';
  if (/\p{Cc}/u.test(directory) || directory.split('/').includes('..')) {
    throw invalidTarget('The SFTP directory must be a plain absolute path.');
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : 22,
    username: decodeURIComponent(url.username),
    directory,
  };
}

/**
 * Delivery targets: owner of `delivery_targets`. Webhook and SFTP hosts pass the RDAP SSRF
 * guard at creation (an IP literal, or every address a name resolves to then) and again when
 * connecting (every resolved address), so a target can never reach our own network;
 * RDAP_ALLOW_INSECURE=1 (tests, demo) also allows http and loopback.
 */
export class DeliveryTargets {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly policy: AddressPolicy,
    private readonly resolveHost: HostResolver = resolveWithSystem,
  ) {}

  async create(
    caller: Pick<Caller, 'accountId' | 'plan'>,
    input: { kind: unknown; address: unknown },
  ): Promise<CreatedDeliveryTarget> {
    const kind = input.kind;
    if (typeof kind !== 'string' || !(TARGET_KINDS as readonly string[]).includes(kind)) {
      throw appError('invalid_target_kind', `kind must be one of ${TARGET_KINDS.join(', ')}.`, {
        details: { parameter: 'kind' },
      });
    }
    // A webhook serves the account events on every plan; e-mail and SFTP only carry filter batches.
    const feature = kind === 'webhook' ? 'accountWebhooks' : 'deliveryTargets';
    if (!caller.plan.features[feature]) {
      throw planRequired(
        feature,
        caller.plan,
        kind === 'webhook'
          ? 'Webhook targets are not part of your plan.'
          : 'Delivery to e-mail and SFTP is part of the Enterprise plan.',
      );
    }
    if (typeof input.address !== 'string' || input.address.length > 2_000 || /\p{Cc}/u.test(input.address)) {
      throw invalidTarget('address must be a string of at most 2,000 characters without control characters.');
    }
    const row: TargetRow = {
      id: newId('tgt'),
      account_id: caller.accountId,
      kind,
      address: input.address.trim(),
      secret: null,
      pinned_host_key: null,
      created_at: this.clock.now(),
    };
    if (kind === 'webhook') {
      const url = this.#checkedWebhookUrl(row.address);
      await this.#assertResolvesToPublic(url.hostname.replace(/^\[(.*)\]$/, '$1'), WEBHOOK_HINT);
      row.address = url.toString();
      row.secret = newWebhookSecret();
    } else if (kind === 'email') {
      row.address = normalizeEmail(row.address);
    } else {
      const sftp = parseSftpAddress(row.address);
      this.assertAllowedHost(sftp.host);
      await this.#assertResolvesToPublic(sftp.host, '');
      const keys = sshUtils.generateKeyPairSync('ed25519', { comment: `domain-intel ${row.id}` });
      row.secret = keys.private;
    }
    await this.db.insertInto('delivery_targets').values(row).execute();
    return { ...toView(row), secret: kind === 'webhook' ? row.secret : null };
  }

  async list(accountId: string): Promise<DeliveryTarget[]> {
    const rows = await this.db
      .selectFrom('delivery_targets')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map(toView);
  }

  async remove(accountId: string, targetId: string): Promise<void> {
    const result = await this.db
      .deleteFrom('delivery_targets')
      .where('id', '=', targetId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw targetNotFound(targetId);
  }

  /** The full rows (with secrets) for the senders. */
  async rows(targetIds: readonly string[]): Promise<Map<string, TargetRow>> {
    if (targetIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('delivery_targets').selectAll().where('id', 'in', targetIds).execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The webhook targets of an account: where its account events go. */
  async webhookIds(accountId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('delivery_targets')
      .select('id')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'webhook')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Trust on first use: the SFTP server's host key seen at the first successful connection. */
  async pinHostKey(targetId: string, fingerprint: string): Promise<void> {
    await this.db
      .updateTable('delivery_targets')
      .set({ pinned_host_key: fingerprint })
      .where('id', '=', targetId)
      .where('pinned_host_key', 'is', null)
      .execute();
  }

  /** Refuses hosts that are IP literals outside the public unicast space (names are checked at connect). */
  assertAllowedHost(host: string): void {
    if (host === '' || (isIP(host) !== 0 && !isAllowedAddress(host, this.policy))) {
      throw appError('target_not_allowed', `${host || 'An empty host'} is not a public address.`);
    }
  }

  #checkedWebhookUrl(address: string): URL {
    try {
      return assertAllowedUrl(address, this.policy);
    } catch (error) {
      if (error instanceof BlockedAddressError) {
        throw appError('target_not_allowed', `${error.message}${WEBHOOK_HINT}`);
      }
      throw error;
    }
  }

  /** A host name is refused as its deliveries would be: by the addresses it resolves to now. */
  async #assertResolvesToPublic(host: string, hint: string): Promise<void> {
    if (isIP(host) !== 0) return;
    const refused = await refusedAddressOf(host, this.policy, this.resolveHost);
    if (refused !== undefined) {
      throw appError('target_not_allowed', `${host} resolves to ${refused}, which is not a public address.${hint}`);
    }
  }
}

const WEBHOOK_HINT = ' Webhook targets must be public https URLs.';

export const targetNotFound = (targetId: string) =>
  appError('target_not_found', `No delivery target ${targetId} on your account.`);

function toView(row: TargetRow): DeliveryTarget {
  return {
    target_id: row.id,
    kind: row.kind as TargetKind,
    address: row.address,
    public_key: row.kind === 'sftp' && row.secret ? publicKeyOf(row.secret, row.id) : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** The OpenSSH public key line (`ssh-ed25519 AAAA… comment`) of our private key for a target. */
function publicKeyOf(privateKey: string, comment: string): string | null {
  const parsed = sshUtils.parseKey(privateKey);
  if (parsed instanceof Error) return null;
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  return `${key.type} ${key.getPublicSSH().toString('base64')} domain-intel-${comment}`;
}
