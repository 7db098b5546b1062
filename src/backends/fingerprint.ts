/**
 * The fingerprint of an approval, which a signed id carries (src/runtime/signed-ids.ts): the
 * middleware computes it when it signs an id, and a backend again when it checks that what was
 * approved is still what is asked.
 */
import { createHash } from 'node:crypto';
import { InterruptReason } from '../protocol/constants';
import { isRecord } from '../wire/guards';

type Json = Record<string, unknown>;

/** JSON with every object's keys sorted, so equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isRecord(item) && !Array.isArray(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((key) => [key, item[key]]),
        )
      : item,
  );
}

/**
 * The fingerprint of a direct-mode tool approval as the card shows it: a SHA-256 of the tool
 * name and the canonical JSON of the arguments. Undefined for any other interrupt (a ticket
 * approval, a question, ...): those carry nothing a user approves argument by argument.
 */
export function approvalFingerprint(interrupt: Json): string | undefined {
  if (interrupt.reason !== InterruptReason.AIDevToolApproval) return undefined;
  const metadata = isRecord(interrupt.metadata) ? interrupt.metadata : {};
  if (metadata.ticket !== undefined) return undefined;
  let text: string;
  try {
    text = canonicalJson([typeof metadata.toolName === 'string' ? metadata.toolName : null, metadata.args ?? null]);
  } catch {
    return undefined;
  }
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}
