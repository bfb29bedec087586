/**
 * How loosely a guide's answer block must match what its call returned: enough to catch a renamed,
 * added or dropped field or a changed outcome, never the ids, times and counts that differ on every run.
 *
 * - the envelope's keys (`data`, `meta`, `error`; the platform's `api`, `output`) are the same, and so
 *   are the keys of `meta` and `api`;
 * - each item the sample shows of `data` / `output` (a list: its first items, in order; or one record)
 *   has the same top-level keys as the returned item at its place, and the same `status` and `source`
 *   where the sample shows them as text; a scalar answer has the same type;
 * - `error.code` is the same;
 * - `…` stands for what the sample leaves out: as a list item, more items; as a key (`"…": "…"`), more
 *   keys of that item; as a value, any value.
 */

const ELIDED = '…';

/** The sample's JSON with a bare `…` (outside strings) read as the string "…". */
export function parseSampleJson(text: string): unknown {
  let out = '';
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (inString) {
      out += char;
      if (char === '\\') out += text[++index] ?? '';
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else out += char === ELIDED ? `"${ELIDED}"` : char;
  }
  return JSON.parse(out);
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sameKeys(sample: Json, actual: Json, where: string, problems: string[]): void {
  const shown = Object.keys(sample).filter((key) => key !== ELIDED);
  const returned = Object.keys(actual);
  const missing = shown.filter((key) => !(key in actual));
  const unshown = ELIDED in sample ? [] : returned.filter((key) => !(key in sample));
  if (missing.length > 0) problems.push(`${where}: the sample shows ${missing.join(', ')}, not returned`);
  if (unshown.length > 0) problems.push(`${where}: returned ${unshown.join(', ')}, not in the sample`);
}

function sameItem(sample: unknown, actual: unknown, where: string, problems: string[]): void {
  if (sample === ELIDED) return;
  if (isObject(sample)) {
    if (!isObject(actual)) {
      problems.push(`${where}: the sample shows an object, returned ${JSON.stringify(actual)}`);
      return;
    }
    sameKeys(sample, actual, where, problems);
    for (const field of ['status', 'source']) {
      const shown = sample[field];
      if (typeof shown === 'string' && shown !== ELIDED && actual[field] !== shown) {
        problems.push(
          `${where}.${field}: the sample shows ${JSON.stringify(shown)}, returned ${JSON.stringify(actual[field])}`,
        );
      }
    }
    return;
  }
  if (typeof sample !== typeof actual || Array.isArray(sample) !== Array.isArray(actual)) {
    problems.push(`${where}: the sample shows ${JSON.stringify(sample)}, returned ${JSON.stringify(actual)}`);
  }
}

function samePayload(sample: unknown, actual: unknown, where: string, problems: string[]): void {
  if (!Array.isArray(sample)) {
    sameItem(sample, actual, where, problems);
    return;
  }
  if (!Array.isArray(actual)) {
    problems.push(`${where}: the sample shows a list, returned ${JSON.stringify(actual)}`);
    return;
  }
  for (const [index, item] of sample.entries()) {
    if (item === ELIDED) return;
    if (index >= actual.length) {
      problems.push(`${where}: the sample shows ${sample.length} items, returned ${actual.length}`);
      return;
    }
    sameItem(item, actual[index], `${where}[${index}]`, problems);
  }
}

/** What differs between a guide's answer and the answer returned, by the rule above (empty: they match). */
export function answerDrift(sample: unknown, actual: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(sample) || !isObject(actual)) {
    sameItem(sample, actual, 'answer', problems);
    return problems;
  }
  sameKeys(sample, actual, 'answer', problems);
  for (const key of ['meta', 'api']) {
    if (isObject(sample[key]) && isObject(actual[key])) sameKeys(sample[key], actual[key], key, problems);
  }
  for (const key of ['data', 'output']) {
    if (key in sample && key in actual) samePayload(sample[key], actual[key], key, problems);
  }
  const shownError = isObject(sample.error) ? sample.error : isObject(sample.output) ? sample.output.error : undefined;
  const returnedError = isObject(actual.error)
    ? actual.error
    : isObject(actual.output)
      ? actual.output.error
      : undefined;
  if (isObject(shownError) && typeof shownError.code === 'string') {
    const code = isObject(returnedError) ? returnedError.code : undefined;
    if (code !== shownError.code)
      problems.push(`error.code: the sample shows ${shownError.code}, returned ${String(code)}`);
  }
  return problems;
}
