/**
 * The verifying half of the middleware: every id of ours in a resume checked against its
 * signature, which is then taken off. Reads nothing but the input and the key.
 */
import type { RunAgentInput } from '@ag-ui/client';
import { quoteId } from '../backends/answers';
import type { Json, Refusal } from '../backends/types';
import { isRecord } from '../wire/guards';
import { idOf, type BackendSet } from './backend-set';
import { INTERRUPT_ID_REFUSED, MAX_RESUME_BYTES, MAX_RESUME_ENTRIES, RESUME_TOO_LARGE, verifyId } from './signed-ids';

/** A resume entry's id as the browser sent it, and the fingerprint its signature vouches for. */
export interface SignedEntry {
  sent: string;
  fingerprint?: string;
}

/** A verified resume: the input with the signatures taken off, and what each signature vouches for (by unsigned id). */
export type Verified = { input: RunAgentInput; fingerprints: Map<string, SignedEntry> } | { refused: Refusal };

export interface VerifyOptions {
  backends: BackendSet;
  /** The key ids were signed with; throws when there is none (see `lazySecret`). */
  key(): Buffer;
  /** A backend's agent would resume a raise under an id that is not ours: refuse every such answer. */
  onlyOurs: boolean;
}

/**
 * The input with every id of ours checked and its signature taken off, and what each signature
 * vouches for; or the refusal of the first id that is unsigned, altered, for another thread or
 * signed with another secret. Ids that are not ours (the agent's own) pass unchanged, unless a
 * backend says its agent would resume a raise under one (`onlyOurs`).
 */
export function verifyResume(input: RunAgentInput, options: VerifyOptions): Verified {
  const fingerprints = new Map<string, SignedEntry>();
  const command = isRecord(input.forwardedProps) ? input.forwardedProps.command : undefined;
  if (isRecord(command) && command.interruptEvent !== undefined) {
    // The event an agent gets back is the one a signed legacy id carries, never one the browser writes.
    return {
      refused: idRefused(
        `The answer in forwardedProps.command was refused (${INTERRUPT_ID_REFUSED}): it carries an interruptEvent, which only this server may attach (answer the interrupt by its signed id in resume instead). The agent did not receive it.`,
      ),
    };
  }
  const resume = (input as { resume?: unknown }).resume;
  if (!Array.isArray(resume)) return { input, fingerprints };
  const unbounded = boundsRefusal(resume);
  if (unbounded) return { refused: unbounded };
  const checked: unknown[] = [];
  for (const item of resume) {
    const sent = idOf(item);
    if (sent === undefined || !options.backends.isOurs(sent)) {
      if (options.onlyOurs && sent !== undefined) {
        // A MastraAgent with native approvals resumes any suspended call, approvals included, by its bare bridge id.
        return {
          refused: idRefused(
            `The answer to interrupt ${quoteId(sent)} was refused (${INTERRUPT_ID_REFUSED}): it is not an id this server issued (this agent takes answers only under the signed id its card was given). The agent did not receive it.`,
          ),
        };
      }
      checked.push(item);
      continue;
    }
    const verified = verifyId(options.key(), typeof input.threadId === 'string' ? input.threadId : '', sent);
    if (!verified.ok) {
      return {
        refused: idRefused(
          `The answer to interrupt ${quoteId(sent)} was refused (${INTERRUPT_ID_REFUSED}): ${verified.reason}. The agent did not receive it.`,
        ),
      };
    }
    fingerprints.set(verified.id, { sent, ...(verified.fingerprint ? { fingerprint: verified.fingerprint } : {}) });
    checked.push({ ...(item as Json), interruptId: verified.id });
  }
  return fingerprints.size === 0 ? { input, fingerprints } : { input: { ...input, resume: checked } as RunAgentInput, fingerprints };
}

const idRefused = (message: string): Refusal => ({ code: INTERRUPT_ID_REFUSED, message });

/**
 * Why a resume is refused before any of its ids is read, in time linear in its size and at most
 * that: an entry that is not `{interruptId: <text>, ...}` (no backend reads any other, and an agent
 * must never get one), more entries than {@link MAX_RESUME_ENTRIES}, an interrupt named twice (each
 * takes one answer, so the copies could answer nothing), or more than {@link MAX_RESUME_BYTES} of JSON.
 */
export function boundsRefusal(resume: readonly unknown[]): Refusal | undefined {
  const tooLarge = (why: string): Refusal => ({
    code: RESUME_TOO_LARGE,
    message: `The resume was refused (${RESUME_TOO_LARGE}): ${why}. The agent did not receive it.`,
  });
  if (resume.length > MAX_RESUME_ENTRIES)
    return tooLarge(`it holds ${resume.length} entries, more than the ${MAX_RESUME_ENTRIES} a resume may hold`);
  const ids = new Set<string>();
  for (const [at, item] of resume.entries()) {
    const id = idOf(item);
    if (id === undefined) {
      return idRefused(
        `The resume was refused (${INTERRUPT_ID_REFUSED}): its entry ${at} has no interruptId text (an interrupt is answered by the id its card was given). The agent did not receive it.`,
      );
    }
    if (ids.has(id)) return tooLarge(`it answers the interrupt ${quoteId(id)} twice (each interrupt takes one answer)`);
    ids.add(id);
  }
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(resume), 'utf8');
  } catch {
    // Only an in-process caller can send what JSON cannot hold (a cycle): it has no size to bound,
    // and its backend declines it with the reason (an edited argument that cannot be written out).
    return undefined;
  }
  return bytes > MAX_RESUME_BYTES
    ? tooLarge(`it takes ${bytes} bytes of JSON, more than the ${MAX_RESUME_BYTES} a resume may take`)
    : undefined;
}
