import type { MiddlewareFunction } from '@ag-ui/client';
import { isRecord } from '../wire/guards';
import { backendsOf, normalizeInterrupts, type NormalizeInterruptsMiddleware } from './normalize-interrupts';

type Cloneable = { clone(): unknown; use(...middlewares: MiddlewareFunction[]): unknown };

/**
 * Installs {@link normalizeInterrupts} on an agent so that it survives `clone()` and stays next to
 * the agent: CopilotRuntime clones the registered agent for every request (some agents, MastraAgent,
 * build their clone from their config and drop the middlewares) and adds its own middlewares to
 * the clone when A2UI, MCP apps or memory are on. Each backend of the middleware prepares the agent
 * and every clone (`prepareAgent`): on a MastraAgent, Mastra's native tool approvals are enabled
 * (`enableMastraToolApprovals`). Returns the same agent.
 *
 * @example
 * const agents = MastraAgent.getLocalAgents({ mastra, resourceId: 'demo' });
 * const runtime = new CopilotRuntime({ agents: { default: withNormalizedInterrupts(agents.assistant) } });
 */
export function withNormalizedInterrupts<A extends Cloneable>(
  agent: A,
  middleware: NormalizeInterruptsMiddleware = normalizeInterrupts(),
): A {
  const prepare = (target: unknown) => {
    for (const backend of backendsOf(middleware)) backend.prepareAgent?.(target);
  };
  const isOurs = (m: unknown) => m === middleware || (isRecord(m) && (m as { fn?: unknown }).fn === middleware);
  const middlewaresOf = (target: A) => (target as unknown as { middlewares?: unknown[] }).middlewares;
  const originalUse = agent.use;
  /**
   * `use()` that keeps ours next to the agent: CopilotRuntime adds its own middlewares (A2UI, MCP
   * apps, memory) to each request's clone, and ours must see the agent itself (its events as they
   * come, and a LangGraph agent's client, to check which interrupts are open).
   */
  const patchedUse = function use(this: A, ...added: MiddlewareFunction[]): unknown {
    const result = originalUse.apply(this, added);
    const list = middlewaresOf(this);
    const at = Array.isArray(list) ? list.findIndex(isOurs) : -1;
    if (list && at !== -1 && at !== list.length - 1) list.push(...list.splice(at, 1));
    return result;
  };
  const originalClone = agent.clone;
  const patchedClone = function clone(this: A): unknown {
    const copy = originalClone.call(this) as A;
    if (!copy || typeof copy !== 'object') return copy;
    const copied = middlewaresOf(copy);
    const kept = Array.isArray(copied) && copied.some(isOurs);
    if (!kept && typeof copy.use === 'function') copy.use(middleware);
    prepare(copy);
    // Clones of clones keep it too, next to the agent.
    Object.defineProperty(copy, 'clone', { value: patchedClone, configurable: true, writable: true });
    if (typeof copy.use === 'function') Object.defineProperty(copy, 'use', { value: patchedUse, configurable: true, writable: true });
    return copy;
  };
  agent.use(middleware);
  prepare(agent);
  Object.defineProperty(agent, 'clone', { value: patchedClone, configurable: true, writable: true });
  Object.defineProperty(agent, 'use', { value: patchedUse, configurable: true, writable: true });
  return agent;
}
