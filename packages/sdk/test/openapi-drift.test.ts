import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import type {
  Availability,
  BulkCheck,
  Delivery,
  DeliveryTarget,
  FeedRecord,
  Quota,
  SavedFilter,
  Suggestion,
  TldDrops,
  TldInfo,
  WatchedDomain,
  WhoisRecord,
} from '../src/domain-intel-types.ts';
import { DOMAIN_INTEL_OPERATIONS, PLATFORM_ENDPOINTS, PLATFORM_METHODS } from '../src/operations.ts';
import type {
  PlatformFriend,
  PlatformNotification,
  PlatformPhoto,
  PlatformUser,
  UploadedPhoto,
} from '../src/platform-types.ts';
import { type RunningDomainIntel, type RunningPlatform, startDomainIntel, startPlatform } from './servers.ts';

interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  description?: string;
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: string[];
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const fetchDocument = async (baseUrl: string): Promise<OpenApiDocument> => {
  const response = await fetch(`${baseUrl}/openapi.json`);
  assert.equal(response.status, 200);
  return (await response.json()) as OpenApiDocument;
};

function operationOf(document: OpenApiDocument, method: string, path: string): OpenApiOperation {
  const operation = document.paths[path]?.[method.toLowerCase()];
  assert.ok(operation, `${method} ${path} is not in the served OpenAPI document`);
  return operation;
}

const names = (parameters: OpenApiParameter[] | undefined, location: string) =>
  (parameters ?? [])
    .filter((parameter) => parameter.in === location)
    .map((parameter) => parameter.name)
    .sort();

/** The `data` schema of an operation's 200 answer (arrays give their item schema). */
function dataSchema(operation: OpenApiOperation): JsonSchema {
  const data = operation.responses['200']?.content?.['application/json']?.schema.properties?.data;
  assert.ok(data, 'the 200 answer has a data schema');
  return data.type === 'array' ? data.items! : data;
}

/**
 * Every field of an SDK type, spelled out: TypeScript refuses a missing or extra key, so this
 * list is the type, and the test compares it with the served schema.
 */
const FIELDS = {
  availability: {
    domain: 1,
    available: 1,
    status: 1,
    source: 1,
    server: 1,
    cached: 1,
    checked_at: 1,
    reason: 1,
    message: 1,
    registry_status: 1,
  } satisfies Record<keyof Availability, 1>,
  whois: {
    domain: 1,
    unicode_name: 1,
    registered: 1,
    registrar: 1,
    created_at: 1,
    updated_at: 1,
    expires_at: 1,
    nameservers: 1,
    status: 1,
    dnssec: 1,
    registrant: 1,
    source: 1,
    server: 1,
    rdap_sources: 1,
    missing: 1,
    fetched_at: 1,
    registry_domain_id: 1,
    transferred_at: 1,
    age_days: 1,
    expires_in_days: 1,
    status_epp: 1,
    nameserver_details: 1,
    dnssec_details: 1,
    contacts: 1,
    redactions: 1,
    privacy_service: 1,
    records: 1,
    cached: 1,
    raw: 1,
  } satisfies Record<keyof WhoisRecord, 1>,
  tld: {
    tld: 1,
    unicode_tld: 1,
    type: 1,
    rdap: 1,
    whois: 1,
    answered_by: 1,
    availability: 1,
    whois_record: 1,
    drop_feed: 1,
  } satisfies Record<keyof TldInfo, 1>,
  tldDrops: {
    tld: 1,
    drop_feed: 1,
    batch_time: 1,
    batch_time_source: 1,
    calendar: 1,
    forecast_error: 1,
  } satisfies Record<keyof TldDrops, 1>,
  suggestion: {
    domain: 1,
    unicode_domain: 1,
    tld: 1,
    available: 1,
    source: 1,
    server: 1,
    cached: 1,
    score: 1,
    kind: 1,
    checked_at: 1,
  } satisfies Record<keyof Suggestion, 1>,
  feedRecord: {
    domain: 1,
    tld: 1,
    status: 1,
    dropped_at: 1,
    first_archived: 1,
    age_years: 1,
    alt_tld_count: 1,
    alt_tlds: 1,
    da: 1,
    tf: 1,
    length: 1,
    has_hyphen: 1,
    has_digit: 1,
    verified_at: 1,
    expected_drop_at: 1,
    first_seen: 1,
    expected_drop_earliest: 1,
    expected_drop_latest: 1,
  } satisfies Record<keyof FeedRecord, 1>,
  quota: {
    plan: 1,
    limit: 1,
    used: 1,
    remaining: 1,
    resets_at: 1,
    period_end: 1,
    cancelled: 1,
  } satisfies Record<keyof Quota, 1>,
  savedFilter: {
    filter_id: 1,
    name: 1,
    filter: 1,
    brand: 1,
    target_ids: 1,
    paused: 1,
    created_at: 1,
  } satisfies Record<keyof SavedFilter, 1>,
  deliveryTarget: {
    target_id: 1,
    kind: 1,
    address: 1,
    public_key: 1,
    created_at: 1,
  } satisfies Record<keyof DeliveryTarget, 1>,
  delivery: {
    delivery_id: 1,
    batch_id: 1,
    type: 1,
    filter_id: 1,
    sequence: 1,
    created_at: 1,
    rows: 1,
    target: 1,
    attempts: 1,
    status: 1,
    next_attempt_at: 1,
    delivered_at: 1,
    last_error: 1,
  } satisfies Record<keyof Delivery, 1>,
  watchedDomain: {
    domain: 1,
    status: 1,
    status_since: 1,
    expected_drop_at: 1,
    evidence: 1,
    checked_at: 1,
    next_check_at: 1,
    paused: 1,
    added_at: 1,
  } satisfies Record<keyof WatchedDomain, 1>,
  bulkCheck: {
    id: 1,
    status: 1,
    total: 1,
    done: 1,
    invalid: 1,
    duplicates: 1,
    created_at: 1,
    started_at: 1,
    finished_at: 1,
    error: 1,
  } satisfies Record<keyof BulkCheck, 1>,
};

const PICTURE_AND_PROFILE = {
  user_id: 1,
  user_name: 1,
  full_name: 1,
  joined: 1,
  country_iso: 1,
  gender: 1,
  photo_50px: 1,
  photo_50px_square: 1,
  photo_120px: 1,
  photo_original: 1,
  profile_url: 1,
} as const;

/** The platform's records as the SDK types them, compared with the served api.php components. */
const PLATFORM_FIELDS = {
  User: { ...PICTURE_AND_PROFILE, email: 1 } satisfies Record<keyof PlatformUser, 1>,
  Friend: PICTURE_AND_PROFILE satisfies Record<keyof PlatformFriend, 1>,
  Notification: { notification_id: 1, link: 1, message: 1, icon: 1 } satisfies Record<keyof PlatformNotification, 1>,
  Photo: { photo_id: 1, name: 1, photo_100px: 1, photo_240px: 1, photo_original: 1 } satisfies Record<
    keyof PlatformPhoto,
    1
  >,
  UploadedPhoto: {
    photo_id: 1,
    original: 1,
    '75px': 1,
    '100px': 1,
    '150px': 1,
    '240px': 1,
    '500px': 1,
    '1024px': 1,
  } satisfies Record<keyof UploadedPhoto, 1>,
};

describe('the SDK agrees with the served OpenAPI documents', () => {
  const target = databaseTargets()[0]!;
  let domainIntel: RunningDomainIntel;
  let platform: RunningPlatform;
  let domainIntelDoc: OpenApiDocument;
  let platformDoc: OpenApiDocument;
  before(async () => {
    [domainIntel, platform] = await Promise.all([startDomainIntel(target), startPlatform(target)]);
    [domainIntelDoc, platformDoc] = await Promise.all([
      fetchDocument(domainIntel.baseUrl),
      fetchDocument(platform.baseUrl),
    ]);
  });
  after(async () => {
    await domainIntel?.close();
    await platform?.close();
  });

  it('Domain Intelligence: every method uses a served path, HTTP method, path and query parameters', () => {
    const queryByPath = new Map<string, Set<string>>();
    for (const [name, operation] of Object.entries(DOMAIN_INTEL_OPERATIONS)) {
      const served = operationOf(domainIntelDoc, operation.method, operation.path);
      const servedQuery = names(served.parameters, 'query');
      for (const parameter of operation.query) {
        assert.ok(servedQuery.includes(parameter), `${name}: query parameter ${parameter} is not served`);
      }
      const pathParameters = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      assert.deepEqual(pathParameters, names(served.parameters, 'path'), `${name}: path parameters`);
      // A JSON body: the SDK sends exactly the fields the service takes.
      const body = (served as { requestBody?: { content?: Record<string, { schema: JsonSchema }> } }).requestBody;
      const bodyFields = Object.keys(body?.content?.['application/json']?.schema.properties ?? {}).sort();
      const sentFields = [...(('body' in operation ? operation.body : undefined) ?? [])].sort();
      assert.deepEqual(sentFields, bodyFields, `${name}: body fields`);
      const key = `${operation.method} ${operation.path}`;
      queryByPath.set(key, new Set([...(queryByPath.get(key) ?? []), ...operation.query]));
    }
    // The other way round: a parameter the service adds must reach the SDK too.
    for (const [key, sent] of queryByPath) {
      const [method, path] = key.split(' ') as [string, string];
      const served = names(operationOf(domainIntelDoc, method, path).parameters, 'query');
      assert.deepEqual([...sent].sort(), served, `${key}: the SDK sends every served query parameter`);
    }
  });

  it('Domain Intelligence: the SDK types have the fields of the served answers', () => {
    const cases: Array<[keyof typeof FIELDS, string]> = [
      ['availability', '/v1/check'],
      ['whois', '/v1/whois/{name}'],
      ['suggestion', '/v1/suggest'],
      ['feedRecord', '/v1/domains'],
      ['feedRecord', '/v1/sample'],
      ['quota', '/v1/quota'],
      ['tld', '/v1/tlds'],
      ['tld', '/v1/tlds/{tld}'],
      ['tldDrops', '/v1/tlds/{tld}/drops'],
      ['savedFilter', '/account/filters'],
      ['deliveryTarget', '/account/targets'],
      ['delivery', '/v1/deliveries'],
      ['watchedDomain', '/v1/watchlist'],
      ['watchedDomain', '/account/watchlist'],
      ['bulkCheck', '/account/bulk-checks'],
      ['bulkCheck', '/account/bulk-checks/{id}'],
    ];
    for (const [type, path] of cases) {
      const schema = dataSchema(operationOf(domainIntelDoc, 'GET', path));
      assert.deepEqual(
        Object.keys(FIELDS[type]).sort(),
        Object.keys(schema.properties ?? {}).sort(),
        `${type} at ${path}`,
      );
    }
  });

  it('Platform: the SDK types have the fields of the served api.php records', () => {
    for (const [name, fields] of Object.entries(PLATFORM_FIELDS)) {
      const served = platformDoc.components?.schemas?.[name];
      assert.ok(served, `${name} is a component of the platform's document`);
      assert.deepEqual(Object.keys(fields).sort(), Object.keys(served.properties ?? {}).sort(), name);
    }
  });

  it('Platform: token.php and api.php are served with the parameters the SDK sends', () => {
    for (const endpoint of Object.values(PLATFORM_ENDPOINTS)) {
      const served = names(operationOf(platformDoc, endpoint.method, endpoint.path).parameters, 'query');
      for (const parameter of endpoint.query) assert.ok(served.includes(parameter), `${endpoint.path}: ${parameter}`);
    }
  });

  it('Platform: the upload methods are served as multipart POSTs with the fields the SDK sends', () => {
    const post = operationOf(platformDoc, 'POST', '/api.php') as OpenApiOperation & {
      requestBody?: {
        content?: Record<
          string,
          { schema: JsonSchema & { properties?: Record<string, JsonSchema & { format?: string }> } }
        >;
      };
    };
    const fields = post.requestBody?.content?.['multipart/form-data']?.schema.properties ?? {};
    for (const [name, method] of Object.entries(PLATFORM_METHODS)) {
      if (method.http !== 'POST') continue;
      for (const param of method.params) assert.ok(fields[param], `${name}: form field ${param} is served`);
    }
    assert.equal(fields.photo?.format, 'binary', 'photo is a file part');
  });

  it('Platform: every api.php method, its HTTP method and its parameters match the served reference', () => {
    const api = operationOf(platformDoc, 'GET', '/api.php');
    const methodParameter = api.parameters?.find((parameter) => parameter.name === 'method') as
      | (OpenApiParameter & { schema: JsonSchema })
      | undefined;
    assert.deepEqual([...(methodParameter?.schema.enum ?? [])].sort(), Object.keys(PLATFORM_METHODS).sort());
    // The reference lists each method as a table row: | HTTP | `name` | parameters (bold: required) | …
    const rows = new Map<string, { http: string; params: string[]; required: string[] }>();
    for (const match of (api.description ?? '').matchAll(/^\| (GET|POST) \| `([\w.]+)` \| ([^|]*) \|/gm)) {
      const params = match[3]!
        .split(',')
        .map((param) => param.trim())
        .filter(Boolean);
      rows.set(match[2]!, {
        http: match[1]!,
        params: params.map((param) => param.replaceAll('*', '')).sort(),
        required: params
          .filter((param) => param.startsWith('**'))
          .map((param) => param.replaceAll('*', ''))
          .sort(),
      });
    }
    assert.equal(rows.size, Object.keys(PLATFORM_METHODS).length, 'one reference row per method');
    for (const [name, method] of Object.entries(PLATFORM_METHODS)) {
      const row = rows.get(name);
      assert.ok(row, `${name} is in the reference`);
      assert.equal(method.http, row.http, `${name}: HTTP method`);
      assert.deepEqual([...method.params].sort(), row.params, `${name}: parameters`);
      assert.deepEqual([...method.required].sort(), row.required, `${name}: required parameters`);
    }
  });
});
