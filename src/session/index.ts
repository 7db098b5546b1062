export {
  InterruptSession,
  isPastExpiry,
  NOT_HANDED_OVER,
  REQUEST_CHANGED,
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
} from './interrupt-session';
export { TERMINAL_STATUSES, type InterruptStatus, type ResumeEntry, type ResumeStatus } from './status';
