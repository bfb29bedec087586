import { groupBySlot, isCluster, type Redis, utcDate } from '@repo/server-kit';
import type { Result } from 'ioredis';
import type { QuotaRecord } from './quota-record.ts';
import {
  type DailyUsage,
  HISTORY_DAYS,
  type QuotaStore,
  type QuotaTake,
  type QuotaTakeRequest,
  REQUEST_ID_SECONDS,
} from './quota-store.ts';
import { type Settled, type UnansweredTake, UnansweredTakes } from './unanswered-takes.ts';

// The takes of one event-loop turn whose counters share a hash slot, in one script: Redis runs a
// script alone, so each counter's check, increment and expiry are one atomic step, as with a
// script per take. Per request i (1-based) KEYS[3i-2] is the day's counter, KEYS[3i-1] its
// mirror for the usage history and KEYS[3i] the marker of its request id (an account's key: same
// slot); ARGV[6i-5] the limit (-1: unlimited), ARGV[6i-4] the seconds left until the next 00:00
// UTC by the service's clock (a relative expiry, so it holds whatever Redis's own clock says),
// ARGV[6i-3] the history's expiry (HISTORY_DAYS more), ARGV[6i-2] the units wanted: all of them
// are taken, or as many as the limit leaves; ARGV[6i-1] the count a counter Redis does not hold
// starts from (the durable record's), or -1: then the request is not applied and answers {-2, 0},
// and the store asks again with the record's count; ARGV[6i] the marker's expiry, or 0 when the
// request has no id (its marker key is then never touched). A request whose marker exists was
// counted before (a proxy's re-send) and answers {-3, the count its call was given} without
// taking (the first answer again, whatever was counted since); a request that takes its unit
// writes its marker, holding its count, in the same step, so a unit and its marker never exist
// one without the other. The mirror is written in the same step, so the two never disagree. The
// requests are applied in order (two for one counter see each other's units). Each runs under
// pcall, so a request Redis refuses (a key of the wrong type) fails alone instead of failing the
// turn of every other account: replies are {taken, used} per request, {-1, error message},
// {-2, 0} or {-3, used}.
const TAKE_MANY = `
local function take(key, history, marker, limit, ttl, historyTtl, units, start, markerTtl)
  local used = redis.call('GET', key)
  if not used then
    if start < 0 then return -2, 0 end
    used = start
    redis.call('SET', key, start, 'EX', ttl)
    if start > 0 then redis.call('SET', history, start, 'EX', historyTtl) end
  end
  used = tonumber(used)
  if markerTtl > 0 then
    local counted = redis.call('GET', marker)
    if counted then return -3, tonumber(counted) end
  end
  if limit >= 0 then units = math.max(0, math.min(units, limit - used)) end
  if units == 0 then
    return 0, used
  end
  used = redis.call('INCRBY', key, units)
  redis.call('EXPIRE', key, ttl)
  redis.call('SET', history, used, 'EX', historyTtl)
  if markerTtl > 0 then redis.call('SET', marker, used, 'EX', markerTtl) end
  return units, used
end

local replies = {}
for i = 1, #KEYS / 3 do
  local ok, taken, used = pcall(take, KEYS[3 * i - 2], KEYS[3 * i - 1], KEYS[3 * i], tonumber(ARGV[6 * i - 5]),
    ARGV[6 * i - 4], ARGV[6 * i - 3], tonumber(ARGV[6 * i - 2]), tonumber(ARGV[6 * i - 1]), tonumber(ARGV[6 * i]))
  if ok then
    replies[2 * i - 1] = taken
    replies[2 * i] = used
  else
    replies[2 * i - 1] = -1
    replies[2 * i] = type(taken) == 'table' and tostring(taken.err) or tostring(taken)
  end
end
return replies
`;

// One request taken whole or not at all (a bulk job): KEYS and ARGV as one request of TAKE_MANY
// (counter, history; limit, ttl, history ttl, units, start). The check and the increment are one
// step, so concurrent jobs never overshoot; replies {taken, used} or {-2, 0} (start from the record).
const TAKE_WHOLE = `
local used = redis.call('GET', KEYS[1])
local start = tonumber(ARGV[5])
if not used then
  if start < 0 then return {-2, 0} end
  used = start
  redis.call('SET', KEYS[1], start, 'EX', ARGV[2])
  if start > 0 then redis.call('SET', KEYS[2], start, 'EX', ARGV[3]) end
end
used = tonumber(used)
local limit = tonumber(ARGV[1])
local units = tonumber(ARGV[4])
if limit >= 0 and used + units > limit then return {0, used} end
used = redis.call('INCRBY', KEYS[1], units)
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], used, 'EX', ARGV[3])
return {units, used}
`;

// One unit back (KEYS: counter, history). With a third key, a request's marker: only when the
// marker is there (its take was counted), which is removed in the same step; replies -1 when it
// was not there, else the count after the refund.
const REFUND = `
if #KEYS == 3 and redis.call('DEL', KEYS[3]) == 0 then return -1 end
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then
  used = redis.call('DECR', KEYS[1])
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('SET', KEYS[2], used, 'KEEPTTL') end
  return used
end
return 0
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** KEYS and ARGV as TAKE_MANY says (three keys and six arguments per request); replies two entries per request. */
    quotaTakeMany(
      numberOfKeys: number,
      ...keysThenArgs: Array<string | number>
    ): Result<Array<number | string>, Context>;
    /** KEYS as REFUND says (two, or three with a request's marker). */
    quotaRefund(numberOfKeys: 2 | 3, ...keys: string[]): Result<number, Context>;
    quotaTakeWhole(
      key: string,
      historyKey: string,
      limit: number,
      ttl: number,
      historyTtl: number,
      units: number,
      start: number,
    ): Result<[number, number], Context>;
  }
}

/** The reply of a request whose counter Redis does not hold and that had no count to start from. */
const NEEDS_START = -2;
/** The reply of a request whose request id was counted before. */
const REPEATED = -3;

/**
 * Counters in Redis for many API instances: one key per account and day, gone after midnight.
 * With a durable record (production), a counter Redis does not hold starts from the record's
 * count rather than 0 (see QuotaRecord): an account's first call of each day, and every
 * account's first call after Redis lost its data, read the record once.
 */
export class RedisQuotaStore implements QuotaStore {
  readonly #redis: Redis;
  readonly #record: QuotaRecord | undefined;
  readonly #keys: QuotaKeys;
  /** Takes with a request id whose reply was lost: given back once their marker shows them counted. */
  readonly unanswered: UnansweredTakes;

  constructor(redis: Redis, options: { record?: QuotaRecord; onError?: (error: unknown) => void } = {}) {
    this.#redis = redis;
    this.#record = options.record;
    this.#keys = quotaKeys(redis);
    this.unanswered = new UnansweredTakes((take) => this.#refundIfCounted(take), {
      markerSeconds: REQUEST_ID_SECONDS,
      onError: options.onError,
    });
    // No fixed numberOfKeys: each call says how many (three per request).
    redis.defineCommand('quotaTakeMany', { lua: TAKE_MANY });
    redis.defineCommand('quotaRefund', { lua: REFUND });
    redis.defineCommand('quotaTakeWhole', { numberOfKeys: 2, lua: TAKE_WHOLE });
  }

  /** One script on the account's slot; a counter Redis does not hold starts from the record's count. */
  async takeWhole(request: QuotaTakeRequest): Promise<QuotaTake> {
    const record = this.#record;
    let [taken, used] = await this.#takeWhole(request, record ? -1 : 0);
    if (taken === NEEDS_START && record) {
      const [floor] = await record.floors([request]);
      [taken, used] = await this.#takeWhole(request, floor ?? 0);
    }
    if (taken === NEEDS_START) throw new Error('The quota counter could not be started from its record.');
    record?.note(request.accountId, request.day, used);
    return { taken, used };
  }

  #takeWhole(
    { accountId, day, limit, units, secondsToReset }: QuotaTakeRequest,
    start: number,
  ): Promise<[number, number]> {
    return this.#redis.quotaTakeWhole(
      this.#keys.counter(accountId, day),
      this.#keys.history(accountId, day),
      limit ?? -1,
      secondsToReset,
      secondsToReset + (HISTORY_DAYS - 1) * 86_400,
      units,
      start,
    );
  }

  /**
   * One script per hash slot of the turn's counters: on a single Redis one script for all of
   * them, whatever the number of accounts; on a Redis Cluster one per slot (a script may only
   * touch keys of one slot, and an account's keys share one), sent at once. Each is atomic, and
   * counters of different slots never affect each other, so the counts stay exact across any
   * number of instances.
   */
  async takeMany(requests: readonly QuotaTakeRequest[]): Promise<Array<PromiseSettledResult<QuotaTake>>> {
    const record = this.#record;
    const outcomes = await this.#takeBySlot(requests, record ? -1 : 0);
    const unstarted = outcomes.flatMap((outcome, i) => (outcome === NEEDS_START ? [i] : []));
    if (record && unstarted.length > 0) {
      const retried = unstarted.map((i) => requests[i]!);
      const floors = await record.floors(retried);
      const again = await this.#takeBySlot(retried, floors);
      unstarted.forEach((i, j) => {
        outcomes[i] = again[j]!;
      });
    }
    return outcomes.map((outcome, i) => {
      if (outcome === NEEDS_START) {
        return { status: 'rejected', reason: new Error('The quota counter could not be started from its record.') };
      }
      if (outcome.status === 'fulfilled' && record) {
        record.note(requests[i]!.accountId, requests[i]!.day, outcome.value.used);
      }
      return outcome;
    });
  }

  /** `start`: one count for every request, or one per request. */
  async #takeBySlot(
    requests: readonly QuotaTakeRequest[],
    start: number | readonly number[],
  ): Promise<Array<PromiseSettledResult<QuotaTake> | typeof NEEDS_START>> {
    const indexed = requests.map((request, index) => ({ request, index }));
    const outcomes: Array<PromiseSettledResult<QuotaTake> | typeof NEEDS_START> = new Array(requests.length);
    const groups = groupBySlot(this.#redis, indexed, ({ request }) =>
      this.#keys.counter(request.accountId, request.day),
    );
    await Promise.all(
      groups.map(async (group) => {
        const keys: string[] = [];
        const args: number[] = [];
        for (const { request, index } of group) {
          const { accountId, day, limit, units, secondsToReset, requestId } = request;
          keys.push(
            this.#keys.counter(accountId, day),
            this.#keys.history(accountId, day),
            this.#keys.requestMarker(accountId, requestId ?? ''),
          );
          const startAt = typeof start === 'number' ? start : start[index]!;
          const markerTtl = requestId === undefined ? 0 : REQUEST_ID_SECONDS;
          args.push(
            limit ?? -1,
            secondsToReset,
            secondsToReset + (HISTORY_DAYS - 1) * 86_400,
            units,
            startAt,
            markerTtl,
          );
        }
        let replies: Array<number | string>;
        try {
          replies = await this.#redis.quotaTakeMany(keys.length, ...keys, ...args);
        } catch (error) {
          // The script may have run before its reply was lost: a take with an id is settled later.
          for (const { request } of group) {
            const { accountId, day, requestId } = request;
            if (requestId !== undefined) this.unanswered.add({ accountId, day, requestId });
          }
          // A single Redis could not be asked at all: the whole promise rejects, as the interface
          // says. On a Cluster only the slot whose node failed: its accounts' takes fail alone.
          if (!isCluster(this.#redis)) throw error;
          for (const { index } of group) outcomes[index] = { status: 'rejected', reason: error };
          return;
        }
        group.forEach(({ index }, i) => {
          const taken = replies[2 * i] as number;
          const usedOrError = replies[2 * i + 1]!;
          outcomes[index] =
            taken === NEEDS_START
              ? NEEDS_START
              : taken === REPEATED
                ? { status: 'fulfilled', value: { taken: 0, used: usedOrError as number, repeated: true } }
                : taken < 0
                  ? {
                      status: 'rejected',
                      reason: new Error(`The quota script failed for this counter: ${usedOrError}`),
                    }
                  : { status: 'fulfilled', value: { taken, used: usedOrError as number } };
        });
      }),
    );
    return outcomes;
  }

  async refund(accountId: string, day: string): Promise<void> {
    await this.#redis.quotaRefund(2, this.#keys.counter(accountId, day), this.#keys.history(accountId, day));
  }

  /** Gives a lost-reply take's unit back when its marker shows Redis counted it. */
  async #refundIfCounted({ accountId, day, requestId }: UnansweredTake): Promise<Settled> {
    const after = await this.#redis.quotaRefund(
      3,
      this.#keys.counter(accountId, day),
      this.#keys.history(accountId, day),
      this.#keys.requestMarker(accountId, requestId),
    );
    return after === -1 ? 'not_counted' : 'refunded';
  }

  /** The day's count; from the durable record when Redis does not hold the counter (lost, or no call yet). */
  async used(accountId: string, day: string): Promise<number> {
    const counted = await this.#redis.get(this.#keys.counter(accountId, day));
    if (counted !== null || !this.#record) return Number(counted ?? 0);
    const [recorded] = await this.#record.floors([{ accountId, day }]);
    return recorded ?? 0;
  }

  async history(accountId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    const days = daysBetween(fromDay, toDay);
    if (days.length === 0) return [];
    // One account's history keys share its hash slot: one MGET on a Cluster too.
    const counts = await this.#redis.mget(days.map((day) => this.#keys.history(accountId, day)));
    // Days Redis no longer holds (it lost its data) are read from the durable record.
    const missing = days.filter((_, i) => counts[i] == null);
    const recorded =
      this.#record && missing.length > 0
        ? new Map(
            (await this.#record.floors(missing.map((day) => ({ accountId, day })))).map((used, i) => [
              missing[i]!,
              used,
            ]),
          )
        : new Map<string, number>();
    return days.flatMap((day, i) => {
      const used = counts[i] == null ? (recorded.get(day) ?? 0) : Number(counts[i]);
      return counts[i] == null && used === 0 ? [] : [{ day, used }];
    });
  }

  /** Writes the counts noted for the durable record now (tests; the record also writes on its own). */
  async writeRecord(): Promise<void> {
    await this.#record?.write();
  }

  async close(): Promise<void> {
    this.unanswered.close();
    await this.#record?.close();
  }
}

interface QuotaKeys {
  counter(accountId: string, day: string): string;
  history(accountId: string, day: string): string;
  /** Marks a request id as counted for the account (any day: a re-send never changes the call's day). */
  requestMarker(accountId: string, requestId: string): string;
}

/**
 * The keys of an account's day. On a Redis Cluster the account id is the hash tag, so its counter
 * and history keys (which one script touches) share a slot; a single Redis keeps the names it
 * has always used, so an upgrade finds the day's counters where they are.
 */
function quotaKeys(redis: Redis): QuotaKeys {
  const tag = isCluster(redis) ? (accountId: string) => `{${accountId}}` : (accountId: string) => accountId;
  return {
    counter: (accountId, day) => `quota:${tag(accountId)}:${day}`,
    history: (accountId, day) => `quota-history:${tag(accountId)}:${day}`,
    requestMarker: (accountId, requestId) => `quota-request:${tag(accountId)}:${requestId}`,
  };
}

/** Every UTC day from `fromDay` to `toDay`, inclusive, at most HISTORY_DAYS of them (the newest). */
function daysBetween(fromDay: string, toDay: string): string[] {
  const first = Math.max(
    Date.parse(`${fromDay}T00:00:00Z`),
    Date.parse(`${toDay}T00:00:00Z`) - (HISTORY_DAYS - 1) * 86_400_000,
  );
  const last = Date.parse(`${toDay}T00:00:00Z`);
  const days: string[] = [];
  for (let time = first; time <= last; time += 86_400_000) days.push(utcDate(time));
  return days;
}
