export {
  groupByThread,
  initialPendingSnapshot,
  PendingInterruptsSource,
  type PendingInterrupt,
  type PendingInterruptsOptions,
  type PendingInterruptsSnapshot,
  type PendingThread,
} from './pending-interrupts';
