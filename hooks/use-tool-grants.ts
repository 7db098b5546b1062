import { useMemo, useSyncExternalStore } from 'react';
import type { InterruptHistory } from '../src/history';
import type { ToolGrants } from './renderer-props';

/**
 * {@link ToolGrants} from the app's `allowAlways` option, the tools allowed so far, and how to
 * change them; `undefined` when the app does not offer "Always allow".
 */
export function toolGrantsFor(
  allowAlways: boolean | readonly string[] | undefined,
  allowed: readonly string[],
  change: { allow(toolName: string): void; revoke(toolName: string): void },
): ToolGrants | undefined {
  if (!allowAlways) return undefined;
  const offers = (toolName: string) => allowAlways === true || allowAlways.includes(toolName);
  return {
    offers,
    allows: (toolName) => offers(toolName) && allowed.includes(toolName),
    allow: (toolName) => {
      if (offers(toolName)) change.allow(toolName);
    },
    revoke: (toolName) => change.revoke(toolName),
  };
}

/**
 * The {@link ToolGrants} of one thread, read from the history (so every card of the thread sees
 * a grant or a revoke at once), or `undefined` when the app does not offer `allowAlways`.
 */
export function useToolGrants(
  history: InterruptHistory,
  threadId: string,
  allowAlways: boolean | readonly string[] | undefined,
): ToolGrants | undefined {
  const allowed = useSyncExternalStore(history.subscribe, () => history.allowedTools(threadId));
  return useMemo(
    () =>
      toolGrantsFor(allowAlways, allowed, {
        allow: (toolName) => history.allowTool(threadId, toolName),
        revoke: (toolName) => history.revokeTool(threadId, toolName),
      }),
    [history, threadId, allowAlways, allowed],
  );
}
