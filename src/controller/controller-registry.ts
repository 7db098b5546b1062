import type { InterruptController } from './interrupt-controller';
import { createListeners } from '../listeners';

// Which controller serves which agent of which CopilotKit instance. Lets a v1 message renderer,
// which CopilotKit mounts far from the hook, find the hook's state without a React context
// (the hook may sit below the chat's provider tree or beside it).
const byCopilotKit = new WeakMap<object, Map<string, InterruptController<unknown>>>();
const { subscribe, notify } = createListeners();

export const controllerRegistry = {
  set(copilotkit: object, agentId: string, controller: InterruptController<unknown>): () => void {
    let agents = byCopilotKit.get(copilotkit);
    if (!agents) byCopilotKit.set(copilotkit, (agents = new Map()));
    agents.set(agentId, controller);
    notify();
    return () => {
      if (agents.get(agentId) !== controller) return;
      agents.delete(agentId);
      notify();
    };
  },
  /** The controller the hook registered; the caller names the view its hook gave it. */
  get<View>(copilotkit: object, agentId: string): InterruptController<View> | undefined {
    return byCopilotKit.get(copilotkit)?.get(agentId) as InterruptController<View> | undefined;
  },
  subscribe,
};
