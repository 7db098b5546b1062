/**
 * The URL when it is absolute `http:` or `https:`, else `undefined`. Payload URLs come from the
 * agent; anything else (`javascript:`, `data:`, relative paths) must never become a link.
 */
export function safeHttpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
