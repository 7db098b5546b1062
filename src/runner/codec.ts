import { createHash } from 'node:crypto';

/**
 * How values are kept in the store. Everything is JSON text: PostgreSQL text cannot hold NUL, and
 * `JSON.stringify` writes NUL (and any lone surrogate) as an escape, so ids and payloads of any
 * content round-trip unchanged and are compared exactly.
 */
export const encode = (value: unknown): string => JSON.stringify(value) ?? 'null';

/** The key of an interrupt id in the unique index: a fixed-size digest, so ids of any length fit. */
export const interruptHash = (interruptId: string): string => createHash('sha256').update(encode(interruptId)).digest('hex');

/** A btree index entry holds about 2.7 kB: thread ids are kept well under it, never cut short. */
export const MAX_THREAD_ID_BYTES = 1024;

/** Why a thread id cannot be stored, or undefined when it can. */
export function threadIdProblem(threadId: unknown): string | undefined {
  if (typeof threadId !== 'string' || threadId.length === 0) {
    return `copilotkit-interrupts runner: a thread id must be a non-empty string (got ${threadId === '' ? 'an empty string' : typeof threadId}).`;
  }
  const bytes = Buffer.byteLength(encode(threadId), 'utf8');
  if (bytes > MAX_THREAD_ID_BYTES) {
    return (
      `copilotkit-interrupts runner: the thread id "${threadId.slice(0, 40)}…" takes ${bytes} bytes once stored; the limit is ${MAX_THREAD_ID_BYTES} bytes so that it can be indexed. ` +
      'Use a shorter id (a UUID takes 38). Nothing was stored.'
    );
  }
  return undefined;
}
