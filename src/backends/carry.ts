/**
 * Data carried inside an interrupt id (base64url JSON), so that the middleware keeps no state: the
 * resume reads back from the id what it needs. Shared by the backends; imports no backend.
 */
import { decodeJson } from '../wire/json';
import { isRecord } from '../wire/guards';

type Json = Record<string, unknown>;

/**
 * Longest value carried inside an interrupt id, in bytes of UTF-8 JSON (what the id holds,
 * base64url-encoded).
 */
export const MAX_CARRIED_LENGTH = 16_384;

/** A value as JSON, in UTF-8 bytes: what an id carries, and what its length limit counts. */
export const utf8Json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): string | undefined {
  // Base64 of the longest carried JSON is 4/3 of it; twice is room for the review ids too.
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length > MAX_CARRIED_LENGTH * 2) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** The object an id's last part carries (`<prefix><own id>::<base64url JSON>`), or undefined when it does not decode. */
export function carriedObject(encoded: string): Json | undefined {
  const text = fromBase64Url(encoded);
  const decoded = text === undefined ? undefined : decodeJson(text);
  return decoded?.ok && isRecord(decoded.value) ? decoded.value : undefined;
}

/** `<rest>` split at its last `::` into the backend's own id and what the id carries; undefined parts when it has none. */
export function splitCarried(rest: string): { ownId: string; carried: Json | undefined } {
  const split = rest.lastIndexOf('::');
  return { ownId: rest.slice(0, Math.max(split, 0)), carried: split > 0 ? carriedObject(rest.slice(split + 2)) : undefined };
}
