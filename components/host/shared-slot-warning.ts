import { LOG } from '../../src/log';

/** Per CopilotKit instance: the agents whose hooks draw their cards in the chat, and how many hooks each. */
const inChat = new WeakMap<object, Map<string, number>>();
const warned = new WeakSet<object>();

/**
 * Development only (the hook calls it only then): CopilotKit keeps one interrupt element
 * per provider, and every CopilotChat under it draws that element. Two agents that both draw in
 * the chat take it from each other: both chats show one agent's card, and an answer given in the
 * other agent's chat goes to that agent. Says so once per provider, with what to do instead.
 * Returns the cleanup for the hook's effect.
 */
export function watchSharedInterruptSlot(copilotkit: object, agentId: string, renderInChat: boolean): (() => void) | undefined {
  if (!renderInChat) return undefined;
  const agents = inChat.get(copilotkit) ?? new Map<string, number>();
  inChat.set(copilotkit, agents);
  agents.set(agentId, (agents.get(agentId) ?? 0) + 1);
  if (agents.size > 1 && !warned.has(copilotkit)) {
    warned.add(copilotkit);
    console.warn(
      `${LOG} The agents ${[...agents.keys()].map((id) => `"${id}"`).join(' and ')} both draw their interrupt cards in the chat under one CopilotKit provider. ` +
        'CopilotKit keeps one interrupt element per provider: every chat shows the card of the agent whose hook mounted last, and an answer goes to that agent. ' +
        "Give each agent's useInterruptRenderers `renderInChat: false` and place the element it returns by that agent's chat, or give each agent its own provider.",
    );
  }
  return () => {
    const left = (agents.get(agentId) ?? 1) - 1;
    if (left > 0) agents.set(agentId, left);
    else agents.delete(agentId);
  };
}
