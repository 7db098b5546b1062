/** The guards every reader of untrusted data shares, in the browser and on the server. */

/** True for a plain object (not null, not a list). The one test of "is this an object" in `src/`. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` without its undefined fields (deleted in place). */
export function stripUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}

/** True for text or nothing: an optional text field. */
export const isOptionalString = (value: unknown) => value === undefined || typeof value === 'string';
