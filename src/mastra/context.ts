/**
 * Mastra hands an agent's tool `suspend` and `resumeData` under `executionContext.agent`, not at the
 * top level (destructuring the top level gives `undefined` and the model loops on tool errors).
 * Workflow steps get them at the top level; both are read here.
 */
export interface SuspendContext<S, R> {
  suspend?: (payload: S) => Promise<unknown>;
  resumeData?: R;
}

export function suspendContext<S, R>(executionContext: unknown): SuspendContext<S, R> {
  const ctx = (executionContext ?? {}) as { agent?: SuspendContext<S, R> } & SuspendContext<S, R>;
  const agent = ctx.agent ?? {};
  return {
    suspend: agent.suspend ?? ctx.suspend,
    resumeData: agent.resumeData ?? ctx.resumeData,
  };
}

export function missingSuspend(toolId: string): Error {
  return new Error(`${toolId} must run inside a Mastra agent with storage: executionContext.agent.suspend is missing.`);
}
