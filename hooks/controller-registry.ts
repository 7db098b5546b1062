import type { InterruptController } from './interrupt-controller';
import { createListeners } from '../src/listeners';

// Which controller serves which agent of which CopilotKit instance. Lets a v1 message renderer,
// which CopilotKit mounts far from the hook, find the hook's state without a React context
// (the hook may sit below the chat's provider tree or beside it).
const byCopilotKit = new WeakMap<object, Map<string, InterruptController>>();
const { subscribe, notify } = createListeners();

export const controllerRegistry = {
  set(copilotkit: object, agentId: string, controller: InterruptController): () => void {
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
  get(copilotkit: object, agentId: string): InterruptController | undefined {
    return byCopilotKit.get(copilotkit)?.get(agentId);
  },
  subscribe,
};
