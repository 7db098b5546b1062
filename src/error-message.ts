/**
 * The message of anything thrown, for a sentence a person reads. Never throws itself: a hostile
 * value (a throwing `toString`, a revoked proxy) must not escape the code that caught it.
 */
export function errorMessage(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'an unreadable error';
  }
}
