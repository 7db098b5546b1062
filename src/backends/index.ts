/**
 * The backends `normalizeInterrupts()` knows, in the order it asks them: the first that reads a
 * raise owns it. A `humanInTheLoopMiddleware` request is a LangGraph value, so it comes before
 * LangGraph; legacy events and plain AG-UI read anything, so they come last.
 */
import { agUiBackend } from './ag-ui';
import { langChainHitlBackend } from './langchain-hitl';
import { langGraphBackend } from './langgraph';
import { legacyBackend } from './legacy';
import { mastraBackend } from './mastra';
import type { InterruptBackend } from './types';

export const BUILT_IN_BACKENDS: readonly InterruptBackend[] = [
  langChainHitlBackend,
  langGraphBackend,
  mastraBackend,
  legacyBackend,
  agUiBackend,
];

export type * from './types';
