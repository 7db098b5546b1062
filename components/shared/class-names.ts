/** Every class the cards use starts with this prefix, so the stylesheet never touches the host app. */
export const CLASS_PREFIX = 'cki';

/** Joins class names, dropping falsy ones. */
export function cx(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}
