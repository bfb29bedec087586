/**
 * `next(value)` at once when `value` is already there, else once its promise settles. A chain of
 * steps that are usually synchronous (a cached token, an in-memory limit, a record kept in memory)
 * then answers in the turn it started in: an `await` costs a promise and a turn even on a plain value.
 * A step that throws synchronously throws to the caller (a rejection, once a promise came before it).
 */
export function after<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
