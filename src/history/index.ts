export { createInterruptHistory } from './create-interrupt-history';
export {
  TERMINAL_RECORD_STATUSES,
  type InterruptHistory,
  type InterruptHistoryOptions,
  type InterruptHistoryPersistence,
  type InterruptHistoryRecord,
  type InterruptRecordStatus,
} from './types';
