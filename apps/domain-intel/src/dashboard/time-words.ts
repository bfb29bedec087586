const MINUTE_MS = 60_000;

const hhmm = (time: number) => new Date(time).toISOString().slice(11, 16);

/**
 * When something happens, in a person's terms: "in 5 h 47 min, at 00:00 UTC" (the date is
 * added when it is not within the next 24 hours: "in 2 d 3 h, on 2026-03-12 at 00:00 UTC").
 * Minutes are rounded up, so a reset 30 s away reads "in 1 min", never "in 0 min".
 */
export function inPersonTerms(now: number, at: number): string {
  const minutes = Math.max(1, Math.ceil((at - now) / MINUTE_MS));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const span =
    days > 0
      ? `${days} d${hours > 0 ? ` ${hours} h` : ''}`
      : hours > 0
        ? `${hours} h${rest > 0 ? ` ${rest} min` : ''}`
        : `${rest} min`;
  const when = days > 0 ? `on ${new Date(at).toISOString().slice(0, 10)} at ${hhmm(at)} UTC` : `at ${hhmm(at)} UTC`;
  return `in ${span}, ${when}`;
}
