/**
 * copilotkit-interrupts/runner — a durable CopilotKit `AgentRunner`: threads and their interrupts in
 * PostgreSQL (`url`) or an embedded store in a local folder. Server only; imports no React.
 */
export { createInterruptRunner, InterruptRunner } from './interrupt-runner';
export type {
  ExpiryOptions,
  Answerer,
  InterruptRecord,
  InterruptRunnerOptions,
  ListInterruptsQuery,
  ListThreadsQuery,
  StoredInterruptStatus,
  ThreadRecord,
} from './types';
export { RunnerError, type RunnerErrorCode } from './errors';
export type { Authorize, AuthorizeCheck, Identify, Person, ThreadAction } from './people';
export type { Approvers, ApproversCheck, ApproversPolicy } from './approvers';
export { createInboxHandler, type InboxHandlerOptions, type InboxInterrupt, type InboxResponse } from './inbox';
export { DEFAULT_EMBEDDED_DIR } from './database';
export { MAX_THREAD_ID_BYTES } from './codec';
export { SCHEMA_VERSION } from './schema';
export type { ThreadChange, ThreadChangeListener, ThreadChangeSource } from './notifications';
export type { InterruptEvent, InterruptEventHook, InterruptEventOptions, InterruptEventType } from './outbox';
