/**
 * Pretty JSON for display. A string that holds JSON (tool arguments often arrive encoded) is
 * decoded first; anything that cannot be serialised is shown with `String()`.
 */
export function formatJson(value: unknown): string {
  let shown = value;
  if (typeof value === 'string') {
    try {
      shown = JSON.parse(value);
    } catch {
      return value;
    }
  }
  try {
    return JSON.stringify(shown, null, 2) ?? String(shown);
  } catch {
    return String(shown);
  }
}
