/**
 * The message of anything thrown, for a sentence a person reads. Never throws itself: a hostile
 * value (a throwing `toString`, a revoked proxy) must not escape the code that caught it. With a
 * `fallback`, only an error's own message or a non-empty text counts: anything else (an empty
 * message, an object, `undefined`) reads as the fallback, never "[object Object]".
 */
export function errorMessage(error: unknown, fallback?: string): string {
  try {
    if (fallback !== undefined)
      return error instanceof Error && error.message ? error.message : typeof error === 'string' && error ? error : fallback;
    return error instanceof Error ? error.message : String(error);
  } catch {
    return fallback ?? 'an unreadable error';
  }
}
