export {
  InterruptSession,
  isPastExpiry,
  NOT_HANDED_OVER,
  keyOf,
  sameKey,
  statusOf,
  type InterruptAnswer,
  type InterruptKey,
  type InterruptPhase,
  type RaisedInterrupt,
  type SessionBatch,
  type SessionDecision,
  type SessionInterrupt,
  type SessionOptions,
  type SessionResumeEntry,
} from './interrupt-session';
export { TERMINAL_STATUSES, type InterruptStatus } from './status';
