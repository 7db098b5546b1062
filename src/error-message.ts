/**
 * The text of anything thrown, for a sentence a person reads: the one way an error becomes text in
 * `src/`. An error's own message, else its name (`TypeError`); an `AggregateError` (a connection
 * tried on several addresses) as its errors' texts joined by `; `; anything else as `String()`.
 * Never throws itself: a hostile value (a throwing `toString`, a revoked proxy) must not escape the
 * code that caught it. With a `fallback`, only an error's own message or a non-empty text counts:
 * anything else (an empty message, an object, `undefined`) reads as the fallback, never
 * "[object Object]".
 */
export function errorMessage(error: unknown, fallback?: string): string {
  try {
    if (error instanceof AggregateError && error.errors.length > 0) {
      return error.errors.map((inner: unknown) => errorMessage(inner, fallback)).join('; ');
    }
    if (error instanceof Error) return error.message || (fallback ?? error.name);
    if (fallback !== undefined) return typeof error === 'string' && error ? error : fallback;
    return String(error);
  } catch {
    return fallback ?? 'an unreadable error';
  }
}
