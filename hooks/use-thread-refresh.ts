import { useEffect } from 'react';
import type { InterruptController } from '../src/controller';

/**
 * The chat reads its thread again when the user comes back to it (the window regains focus, the
 * tab becomes visible): another device may have answered a card meanwhile, and that card then
 * turns read-only with the answer the agent received, without a click or a reload.
 */
export function useThreadRefresh(controller: InterruptController<unknown>): void {
  useEffect(() => {
    if (typeof window === 'undefined' || typeof document === 'undefined') return;
    const refresh = () => void controller.refreshThread();
    const onVisibility = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    window.addEventListener('focus', refresh);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('focus', refresh);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [controller]);
}
