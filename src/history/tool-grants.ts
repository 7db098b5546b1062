import { write } from './persistence';
import type { InterruptHistoryPersistence } from './types';

const NONE: readonly string[] = Object.freeze([]);

type Warn = (action: string, threadId: string, detail: unknown) => void;

/**
 * Reads a stored list of tool names. What is not one (broken JSON, not a list, an entry that is
 * not a name) is dropped with one console warning naming the thread; the names are kept.
 */
function parseTools(raw: string | null | undefined, threadId: string, warn: Warn): string[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: warned about below, as not a list.
  }
  const list: unknown[] = Array.isArray(value) ? value : [];
  const tools = list.filter((tool): tool is string => typeof tool === 'string' && tool !== '');
  // The history's storage warning, which names the thread, with the stored text.
  if (list !== value || tools.length < list.length) warn('read every entry of the always-allowed tools of', threadId, raw);
  return [...new Set(tools)];
}

/**
 * The tools a conversation always allows ("Always allow <tool> in this conversation"), per
 * thread, kept where the thread's history is kept. Part of {@link createInterruptHistory}.
 */
export function createToolGrants(
  persistence: InterruptHistoryPersistence | undefined,
  storageKey: (threadId: string) => string,
  notify: () => void,
  warn: Warn,
) {
  const threads = new Map<string, readonly string[]>();
  /** Threads whose tools could not be read yet: read again on each access, as the history's records are. */
  const unread = new Set<string>();

  const allowedTools = (threadId: string): readonly string[] => {
    if (!threads.has(threadId)) {
      try {
        const stored = parseTools(persistence?.get(storageKey(threadId)), threadId, warn);
        threads.set(threadId, stored.length ? Object.freeze(stored) : NONE);
        // Readers that got "none" while it could not be read read again.
        if (unread.delete(threadId)) queueMicrotask(notify);
      } catch (error) {
        // Not kept as "none", or a grant given meanwhile would overwrite the tools stored before.
        if (!unread.has(threadId)) warn('read the always-allowed tools of', threadId, error);
        unread.add(threadId);
      }
    }
    return threads.get(threadId) ?? NONE;
  };

  const change = (threadId: string, tools: readonly string[]) => {
    threads.set(threadId, Object.freeze([...tools]));
    write(persistence, storageKey(threadId), JSON.stringify(tools), (error) => warn('store the always-allowed tools of', threadId, error));
    notify();
  };

  return {
    allowedTools,
    allowTool(threadId: string, toolName: string) {
      const tools = allowedTools(threadId);
      if (!tools.includes(toolName)) change(threadId, [...tools, toolName]);
    },
    revokeTool(threadId: string, toolName: string) {
      const tools = allowedTools(threadId);
      if (tools.includes(toolName))
        change(
          threadId,
          tools.filter((tool) => tool !== toolName),
        );
    },
  };
}
