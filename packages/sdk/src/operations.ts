/**
 * Every HTTP operation the clients make, as data. The clients build their requests from
 * these tables and the drift test compares them with each service's served /openapi.json,
 * so a renamed path or parameter fails the tests instead of failing customers.
 */

import { FEED_FILTER_PARAMETERS, FEED_PAGE_PARAMETERS } from '@repo/contracts/domain-intel';

export interface HttpOperation {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** Query parameters the client may send. */
  query: readonly string[];
  /** Fields of the JSON body the client may send. */
  body?: readonly string[];
}

export const DOMAIN_INTEL_OPERATIONS = {
  check: { method: 'GET', path: '/v1/check', query: ['domain'] },
  checkMany: { method: 'GET', path: '/v1/check', query: ['domains'] },
  whois: { method: 'GET', path: '/v1/whois/{name}', query: ['raw'] },
  suggest: { method: 'GET', path: '/v1/suggest', query: ['keyword', 'tld'] },
  domains: {
    method: 'GET',
    path: '/v1/domains',
    query: [...FEED_FILTER_PARAMETERS, ...FEED_PAGE_PARAMETERS],
  },
  quota: { method: 'GET', path: '/v1/quota', query: [] },
  tlds: { method: 'GET', path: '/v1/tlds', query: [] },
  tld: { method: 'GET', path: '/v1/tlds/{tld}', query: [] },
  tldDrops: { method: 'GET', path: '/v1/tlds/{tld}/drops', query: [] },
  sample: { method: 'GET', path: '/v1/sample', query: ['domain'] },
  // Managing saved filters, delivery targets, deliveries and the watchlist: never counted.
  deliveries: { method: 'GET', path: '/v1/deliveries', query: ['filter_id', 'limit', 'offset'] },
  watchlist: { method: 'GET', path: '/v1/watchlist', query: ['limit', 'offset'] },
  filters: { method: 'GET', path: '/account/filters', query: [] },
  createFilter: {
    method: 'POST',
    path: '/account/filters',
    query: [],
    body: ['name', 'filter', 'brand', 'target_ids'],
  },
  deleteFilter: { method: 'DELETE', path: '/account/filters/{id}', query: [] },
  targets: { method: 'GET', path: '/account/targets', query: [] },
  createTarget: { method: 'POST', path: '/account/targets', query: [], body: ['kind', 'address'] },
  deleteTarget: { method: 'DELETE', path: '/account/targets/{id}', query: [] },
  redeliver: { method: 'POST', path: '/account/deliveries/{id}/redeliver', query: [] },
  watch: { method: 'POST', path: '/account/watchlist', query: [], body: ['domain'] },
  unwatch: { method: 'DELETE', path: '/account/watchlist/{domain}', query: [] },
  // Bulk availability jobs: the job takes one call per distinct valid name when it is accepted.
  bulkCheck: { method: 'POST', path: '/account/bulk-checks', query: [], body: ['domains'] },
  bulkChecks: { method: 'GET', path: '/account/bulk-checks', query: ['limit', 'offset'] },
  bulkCheckStatus: { method: 'GET', path: '/account/bulk-checks/{id}', query: [] },
  bulkCheckResults: { method: 'GET', path: '/account/bulk-checks/{id}/results', query: ['format'] },
  cancelBulkCheck: { method: 'POST', path: '/account/bulk-checks/{id}/cancel', query: [] },
} as const satisfies Record<string, HttpOperation>;

export const PLATFORM_ENDPOINTS = {
  token: { method: 'GET', path: '/token.php', query: ['key', 'sig'] },
  api: { method: 'GET', path: '/api.php', query: ['token', 'method'] },
} as const satisfies Record<string, HttpOperation>;

export interface PlatformMethod {
  http: 'GET' | 'POST';
  params: readonly string[];
  required: readonly string[];
}

/** The api.php methods, by `module.name`, with the parameters each accepts. */
export const PLATFORM_METHODS = {
  'friend.getFriends': { http: 'GET', params: ['user_id', 'page'], required: [] },
  'friend.isFriend': { http: 'GET', params: ['user_id', 'friend_user_id'], required: ['friend_user_id'] },
  'mail.getNewCount': { http: 'GET', params: ['user_id'], required: [] },
  'notification.add': { http: 'POST', params: ['message', 'link'], required: ['message'] },
  'notification.get': { http: 'GET', params: ['user_id', 'page'], required: [] },
  'notification.getNewCount': { http: 'GET', params: ['user_id'], required: [] },
  'photo.addPhoto': { http: 'POST', params: ['photo', 'photo_name', 'visibility'], required: ['photo'] },
  'photo.getPhotos': { http: 'GET', params: ['user_id', 'page'], required: [] },
  'user.getUser': { http: 'GET', params: ['user_id'], required: [] },
  // Several of the above in one request: PlatformAppClient.batch.
  batch: { http: 'GET', params: ['calls'], required: ['calls'] },
} as const satisfies Record<string, PlatformMethod>;

export type PlatformMethodName = keyof typeof PLATFORM_METHODS;

/** Most rows of one /v1/domains page and the largest offset the feed accepts. */
export const FEED_MAX_LIMIT = 100;
export const FEED_MAX_OFFSET = 10_000;
/** Most names in one /v1/check call. */
export const CHECK_MAX_DOMAINS = 30;
/** Items per page of the platform's list methods. */
export const PLATFORM_PAGE_SIZE = 10;
