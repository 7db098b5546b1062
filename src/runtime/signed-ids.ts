import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ResumeRefusal } from '../protocol/constants';
import { LOG } from '../log';

/** The environment variable `normalizeInterrupts()` reads its secret from when none is passed. */
export const SECRET_ENV = 'COPILOTKIT_INTERRUPTS_SECRET';
/** Shortest secret accepted, in characters (or bytes): 32 is 128 bits of hex or more of anything else. */
export const MIN_SECRET_LENGTH = 32;

/** The `code` of the RUN_ERROR that ends a run whose resume names an id the server did not issue (or not like this). */
export const INTERRUPT_ID_REFUSED = ResumeRefusal.IdRefused;
/** The `code` of the RUN_ERROR that ends a run whose approval was given to a request that has changed since it was shown. */
export const INTERRUPT_CHANGED = ResumeRefusal.Changed;

/**
 * The `code` of the RUN_ERROR that ends a run whose resume no set of open interrupts takes: one
 * that names an interrupt twice, holds more than {@link MAX_RESUME_ENTRIES} entries or more than
 * {@link MAX_RESUME_BYTES} bytes of JSON. Refused before any signature is checked.
 */
export const RESUME_TOO_LARGE = ResumeRefusal.TooLarge;
/** The most entries a resume may hold: far more than one stop raises, far fewer than slow the server. */
export const MAX_RESUME_ENTRIES = 200;
/** The most bytes of JSON a resume's entries may take (1 MiB): answers are what a person typed or picked. */
export const MAX_RESUME_BYTES = 1024 * 1024;

/**
 * The `code` of the RUN_ERROR that ends a run whose answer the request does not take: a decision a
 * LangChain `humanInTheLoopMiddleware` action does not allow, or its request not answered whole.
 */
export const ANSWER_NOT_ALLOWED = ResumeRefusal.AnswerNotAllowed;

/** What the missing secret error says; a test and the docs quote it. */
export const MISSING_SECRET =
  `${LOG} normalizeInterrupts() needs a secret to sign the interrupt ids it sends to the browser: ` +
  `pass normalizeInterrupts({ secret }) or set the ${SECRET_ENV} environment variable ` +
  `(at least ${MIN_SECRET_LENGTH} random characters, the same on every server process). ` +
  'Without one an altered id could make the agent act on a request it never made.';

export const EPHEMERAL_SECRET_WARNING =
  `${LOG} No secret for interrupt ids (normalizeInterrupts({ secret }) or ${SECRET_ENV}): ` +
  'using a random one for this process, so ids issued before a restart, or by another process, are refused. ' +
  'Outside development a secret is required.';

/**
 * The `code` of the RUN_ERROR that ends every run of a server that has no usable secret: no
 * `secret` option and no {@link SECRET_ENV} in production, or one shorter than
 * {@link MIN_SECRET_LENGTH}. The message says which and what to set.
 */
export const SECRET_MISSING = 'interrupts_secret_missing' as const;

let ephemeral: Buffer | undefined;

/** A secret given, as bytes; throws when it is too short to sign with. */
function keyOf(given: string | Uint8Array): Buffer {
  const key = typeof given === 'string' ? Buffer.from(given, 'utf8') : Buffer.from(given);
  if (key.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `${LOG} The secret for interrupt ids (normalizeInterrupts({ secret }) or ${SECRET_ENV}) is ${key.length} long; ` +
        `it needs at least ${MIN_SECRET_LENGTH} random characters.`,
    );
  }
  return key;
}

/**
 * The key ids are signed with, resolved when first asked for and then kept: a secret passed in is
 * checked at once (it is in the code), the environment is read on first use (a build, `next
 * build` evaluating the route, often runs without the secrets the server gets at run time).
 * Without either, production (`NODE_ENV=production`) throws {@link MISSING_SECRET} on every
 * use until the variable is set; elsewhere a random key for this process is made once, with one
 * warning.
 */
export function lazySecret(secret: string | Uint8Array | undefined): () => Buffer {
  let key = secret !== undefined && secret !== '' ? keyOf(secret) : undefined;
  return () => (key ??= resolveSecret(undefined));
}

/**
 * The key ids are signed with: the `secret` option, else the environment variable. Without
 * either, production (`NODE_ENV=production`) throws {@link MISSING_SECRET}; elsewhere a random
 * key for this process is made once, with one warning.
 */
export function resolveSecret(secret: string | Uint8Array | undefined): Buffer {
  const given = secret ?? envSecret();
  if (given !== undefined && given !== '') return keyOf(given);
  if (nodeEnv() === 'production') throw new Error(MISSING_SECRET);
  if (!ephemeral) {
    ephemeral = randomBytes(32);
    console.warn(EPHEMERAL_SECRET_WARNING);
  }
  return ephemeral;
}

function envSecret(): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env?.[SECRET_ENV];
  return value === '' ? undefined : value;
}

function nodeEnv(): string | undefined {
  return typeof process === 'undefined' ? undefined : process.env?.NODE_ENV;
}

// ---------------------------------------------------------------------------------------------
// Signed ids: `<id>.<fingerprint or nothing>.<signature>`

const SIGNATURE_LENGTH = 43; // 32 bytes of HMAC-SHA256, base64url without padding
const FINGERPRINT_LENGTH = 43; // 32 bytes of SHA-256, base64url without padding
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const mac = (key: Buffer, threadId: string, id: string, fingerprint: string) =>
  createHmac('sha256', key).update(`copilotkit-interrupts/id/v1\n${threadId.length}:${threadId}\n${fingerprint}\n${id}`, 'utf8').digest();

/**
 * The id the browser gets for `id`: signed for this thread, with the approval's fingerprint (see
 * `approvalFingerprint` in src/backends/fingerprint.ts) when there is one. Changing any character
 * of it, or using it on another thread, breaks the signature.
 */
export function signId(key: Buffer, threadId: string, id: string, fingerprint = ''): string {
  return `${id}.${fingerprint}.${mac(key, threadId, id, fingerprint).toString('base64url')}`;
}

/** A signed id read back: the id that was signed and its fingerprint, or why it is refused. */
export type VerifiedId = { ok: true; id: string; fingerprint?: string } | { ok: false; reason: string };

/** Checks an id that came back from the browser (untrusted). Never throws. */
export function verifyId(key: Buffer, threadId: string, signed: string): VerifiedId {
  const unsigned: VerifiedId = { ok: false, reason: 'it carries no signature (it was not issued by this server, or was cut)' };
  if (signed.length < SIGNATURE_LENGTH + 2 || signed[signed.length - SIGNATURE_LENGTH - 1] !== '.') return unsigned;
  const signature = signed.slice(-SIGNATURE_LENGTH);
  if (!BASE64URL.test(signature)) return unsigned;
  const rest = signed.slice(0, -SIGNATURE_LENGTH - 1);
  let id: string;
  let fingerprint = '';
  if (rest.endsWith('.')) id = rest.slice(0, -1);
  else if (rest.length > FINGERPRINT_LENGTH && rest[rest.length - FINGERPRINT_LENGTH - 1] === '.') {
    fingerprint = rest.slice(-FINGERPRINT_LENGTH);
    id = rest.slice(0, -FINGERPRINT_LENGTH - 1);
    if (!BASE64URL.test(fingerprint)) return unsigned;
  } else return unsigned;
  const expected = mac(key, threadId, id, fingerprint);
  const given = Buffer.from(signature, 'base64url');
  // base64url decoding ignores what it cannot read: compare the canonical text too.
  if (given.length !== expected.length || given.toString('base64url') !== signature || !timingSafeEqual(given, expected)) {
    return {
      ok: false,
      reason: 'its signature does not match (it was altered, issued for another thread, or signed with another secret)',
    };
  }
  return { ok: true, id, ...(fingerprint ? { fingerprint } : {}) };
}
