import { useSyncExternalStore } from 'react';
import type { InterruptHistoryRecord } from '../src/history';
import type { InterruptController } from './card-view';

/** The records of one thread, re-read whenever the history changes. */
export function useThreadRecords(controller: InterruptController, threadId: string): readonly InterruptHistoryRecord[] {
  return useSyncExternalStore(controller.history.subscribe, () => controller.history.getSnapshot(threadId));
}
