/**
 * A value, or a promise of it. The call path returns a plain value when every step of it was
 * synchronous: each `async` layer costs promises, and on Node 20 every promise created while an
 * AsyncLocalStorage is active also runs its hooks (about a microsecond per layer).
 */
export type MaybePromise<T> = T | Promise<T>;

/** Whether `value` is a thenable, to be awaited rather than used as it is. */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
