/**
 * The verifying half of the middleware: every id of ours in a resume checked against its
 * signature, which is then taken off. Reads nothing but the input and the key.
 */
import type { RunAgentInput } from '@ag-ui/client';
import { quoteId } from '../backends/answers';
import type { Json, Refusal } from '../backends/types';
import { isRecord } from '../unwrap/guards';
import { idOf, type BackendSet } from './backend-set';
import { INTERRUPT_ID_REFUSED, verifyId } from './signed-ids';

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
