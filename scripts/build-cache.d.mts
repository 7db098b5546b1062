export type InputHashes = Record<string, string>;

export interface Stamp {
  version: number;
  builtAt: number;
  output: string;
  extra: string[];
  files: InputHashes;
}

export type Decision = { reuse: true; builtAt: number } | { reuse: false; reason: string };

export function hashInputs(root: string, inputs: string[], extra?: string[]): InputHashes;
export function changedFiles(before: InputHashes, now: InputHashes): string[];
export function undeclaredInputs(root: string, read: string[], inputs: string[]): string[];
export function decide(stamp: Stamp | undefined, current: InputHashes, outputHash: string | undefined): Decision;
export function outputHash(file: string): string | undefined;
export function readStamp(file: string): Stamp | undefined;
export function writeStamp(file: string, stamp: { files: InputHashes; extra: string[]; output: string | undefined }): void;
export function removeStamp(file: string): void;
export function formatBuiltAt(ms: number): string;
export interface LockOptions {
  /** Called once if another holds the lock. */
  onWait?: () => void;
  /** How long to wait before giving up (20 minutes). */
  timeoutMs?: number;
  /** How often to look again while another holds it (500 ms). */
  pollMs?: number;
  /** A lock older than this is taken over even if its holder still runs. */
  staleAfterMs?: number;
  /** What is waited for, in the error thrown after `timeoutMs`. */
  what?: string;
}
export function withLock<T>(lock: string, work: () => Promise<T> | T, options?: LockOptions): Promise<T>;
