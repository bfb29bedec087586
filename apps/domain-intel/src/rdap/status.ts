/**
 * RDAP status values and their EPP codes. RFC 8056 §2 maps each EPP status (RFC 5731, RFC 3915)
 * to an RDAP value (RFC 9083 §10.2.2); WHOIS tools show the EPP spelling.
 */
const EPP_BY_RDAP: Readonly<Record<string, string>> = {
  'add period': 'addPeriod',
  'auto renew period': 'autoRenewPeriod',
  'client delete prohibited': 'clientDeleteProhibited',
  'client hold': 'clientHold',
  'client renew prohibited': 'clientRenewProhibited',
  'client transfer prohibited': 'clientTransferProhibited',
  'client update prohibited': 'clientUpdateProhibited',
  inactive: 'inactive',
  associated: 'linked',
  active: 'ok',
  'pending create': 'pendingCreate',
  'pending delete': 'pendingDelete',
  'pending renew': 'pendingRenew',
  'pending restore': 'pendingRestore',
  'pending transfer': 'pendingTransfer',
  'pending update': 'pendingUpdate',
  'redemption period': 'redemptionPeriod',
  'renew period': 'renewPeriod',
  'server delete prohibited': 'serverDeleteProhibited',
  'server renew prohibited': 'serverRenewProhibited',
  'server transfer prohibited': 'serverTransferProhibited',
  'server update prohibited': 'serverUpdateProhibited',
  'server hold': 'serverHold',
  'transfer period': 'transferPeriod',
};

/** `clientTransferProhibited` (EPP spelling some servers send) → `client transfer prohibited` (RFC 8056). */
export function normalizeStatus(status: string): string {
  return status
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

/** The EPP code of a normalised RDAP status; values outside RFC 8056 (e.g. `server recover prohibited`) stay as sent. */
export function eppStatus(rdapStatus: string): string {
  return EPP_BY_RDAP[rdapStatus] ?? rdapStatus;
}
