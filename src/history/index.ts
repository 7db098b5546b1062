export { createInterruptHistory } from './create-interrupt-history';
export {
  type InterruptHistory,
  type InterruptHistoryOptions,
  type InterruptHistoryPersistence,
  type InterruptHistoryRecord,
} from './types';
