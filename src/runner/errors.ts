/** What went wrong in the runner, for code to branch on (never the message text). */
export type RunnerErrorCode =
  /** A thread id that cannot be stored (empty, not text, or too long to index). */
  | 'bad_thread_id'
  /** A listing query the runner cannot answer (an unknown status, a limit out of range, a cursor it did not issue). */
  | 'bad_query'
  /** The store was written by a newer copilotkit-interrupts. */
  | 'schema_newer'
  /** The store's schema version cannot be read. */
  | 'schema_unreadable'
  /** The store cannot be opened or prepared (unreachable server, missing package, unwritable folder). */
  | 'store_unavailable'
  /** A run was asked for while another holds the thread (`onConcurrentRun: 'throw'`). */
  | 'thread_running'
  /** The runner was closed. */
  | 'runner_closed'
  /** `identify` recognised no one in the request. */
  | 'unauthenticated'
  /** `identify` returned a person the runner cannot store (an id that is empty, not text, or too long). */
  | 'bad_identity'
  /** `identify` threw; the request was refused. */
  | 'identify_failed'
  /** The thread belongs to someone else and `authorize` did not allow this (or threw). */
  | 'forbidden'
  /** An option of `createInterruptRunner` the runner cannot use (`onInterruptEvent` not a function, a timing not a positive number). */
  | 'bad_option';

/** An error of the durable runner: `code` says which kind, `message` says what to do. */
export class RunnerError extends Error {
  override readonly name = 'RunnerError';

  constructor(
    readonly code: RunnerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
