import type { InterruptController } from './interrupt-controller';

// Which controller serves which agent of which CopilotKit instance. Lets a v1 message renderer,
// which CopilotKit mounts far from the hook, find the hook's state without a React context
// (the hook may sit below the chat's provider tree or beside it).
const byCopilotKit = new WeakMap<object, Map<string, InterruptController>>();
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of [...listeners]) listener();
};

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
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
