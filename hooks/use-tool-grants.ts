import { useMemo, useSyncExternalStore } from 'react';
import type { InterruptHistory } from '../src/history';
import type { ToolGrants } from './renderer-props';

/**
 * The {@link ToolGrants} of one thread, read from the history (so every card of the thread sees
 * a grant or a revoke at once), or `undefined` when the app does not offer `allowAlways`.
 */
export function useToolGrants(history: InterruptHistory, threadId: string, allowAlways: boolean | readonly string[] | undefined): ToolGrants | undefined {
  const allowed = useSyncExternalStore(history.subscribe, () => history.allowedTools(threadId));
  return useMemo(() => {
    if (!allowAlways) return undefined;
    const offers = (toolName: string) => allowAlways === true || allowAlways.includes(toolName);
    return {
      offers,
      allows: (toolName) => offers(toolName) && allowed.includes(toolName),
      allow: (toolName) => {
        if (offers(toolName)) history.allowTool(threadId, toolName);
      },
      revoke: (toolName) => history.revokeTool(threadId, toolName),
    };
  }, [history, threadId, allowAlways, allowed]);
}
