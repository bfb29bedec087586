/** Time source. Production uses the system clock; tests set and advance a manual one. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  #now: number;
  constructor(start: number | string | Date = Date.now()) {
    this.#now = new Date(start).getTime();
  }
  now(): number {
    return this.#now;
  }
  set(time: number | string | Date): void {
    this.#now = new Date(time).getTime();
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}

const DAY_MS = 86_400_000;

/** Start of the UTC day containing `time`, in ms. */
export function startOfUtcDay(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS;
}

/** The next 00:00 UTC strictly after `time`, in ms. */
export function nextUtcMidnight(time: number): number {
  return startOfUtcDay(time) + DAY_MS;
}

/** The last day utcDate formatted: every keyed call asks for today's, so today's is kept. */
let lastDay = { start: Number.NaN, date: '' };

/** The UTC calendar date of `time` as YYYY-MM-DD. */
export function utcDate(time: number): string {
  const start = startOfUtcDay(time);
  if (start === lastDay.start) return lastDay.date;
  const date = new Date(time).toISOString().slice(0, 10);
  if (Number.isFinite(start)) lastDay = { start, date };
  return date;
}
