import type { AbstractAgent, BaseEvent } from '@ag-ui/client';
import { MastraAgent } from '@ag-ui/mastra';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { LibSQLStore } from '@mastra/libsql';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createScriptedModel, type ScriptedTurn } from '../../../demo/server/scripted-model';
import { createApprovalTool } from '../../../src/mastra';
import { withNormalizedInterrupts } from '../../../src/runtime';

process.env.MASTRA_TELEMETRY_DISABLED = 'true';

// The real chain for a direct-mode approval: a Mastra Agent (scripted model) calls
// createApprovalTool, which suspends; the card's answer resumes it through @ag-ui/mastra.
const proposed = { service: 'api', replicas: 2 };

/** Proposes the deploy; after the tool answers, repeats what it said. */
function decideTurn(prompt: unknown): ScriptedTurn {
  const messages = prompt as { role: string; content: unknown }[];
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const results = messages
    .slice(lastUser + 1)
    .flatMap((m) => (m.role === 'tool' && Array.isArray(m.content) ? m.content : []))
    .map((part) => JSON.stringify((part as { output?: unknown }).output));
  if (results.length > 0) return { kind: 'text', text: results.join(' ') };
  return { kind: 'tool', toolName: 'request_approval', input: { action: 'Deploy the api', toolName: 'deploy_service', args: proposed } };
}

let agent: AbstractAgent;
const deploy = vi.fn((args: Record<string, unknown>) => `deployed ${args.service} x${args.replicas}`);

beforeEach(() => {
  deploy.mockClear();
  const assistant = new Agent({
    id: 'assistant',
    name: 'assistant',
    instructions: 'Ask for approval before deploying.',
    model: createScriptedModel(decideTurn as never) as never,
    tools: { request_approval: createApprovalTool({ run: deploy }) },
  });
  const mastra = new Mastra({
    agents: { assistant },
    storage: new LibSQLStore({ id: 'approval-edits', url: ':memory:' }),
    logger: false,
  });
  agent = withNormalizedInterrupts(MastraAgent.getLocalAgents({ mastra, resourceId: 'test' }).assistant) as unknown as AbstractAgent;
});

async function run(threadId: string, input: Record<string, unknown>, messages: unknown[] = []) {
  const clone = agent.clone() as AbstractAgent;
  clone.threadId = threadId;
  clone.setMessages(messages as never);
  const events: BaseEvent[] = [];
  await clone.runAgent(input as never, { onEvent: ({ event }) => void events.push(event) });
  return { events, messages: clone.messages };
}

async function proposeDeploy(threadId: string) {
  const turn = await run(threadId, {}, [{ id: `u-${threadId}`, role: 'user', content: 'Deploy the api' }]);
  const finished = turn.events.find((e) => e.type === 'RUN_FINISHED') as {
    outcome?: { interrupts: { id: string; metadata: Record<string, unknown> }[] };
  };
  const [interrupt] = finished.outcome!.interrupts;
  return { interrupt, messages: turn.messages };
}

const textOf = (events: BaseEvent[]) =>
  events
    .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
    .map((e) => (e as { delta?: string }).delta)
    .join('');

describe('createApprovalTool in direct mode, on the real Mastra agent', () => {
  it('given an approval with edited arguments, should run the action with exactly the edited values', async () => {
    const { interrupt, messages } = await proposeDeploy('t-edit');
    expect(interrupt.metadata).toMatchObject({ toolName: 'deploy_service', args: proposed });

    const edited = { service: 'api', replicas: 5, region: 'eu' };
    const resumed = await run(
      't-edit',
      { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true, editedArgs: edited } }] },
      messages,
    );

    expect(deploy).toHaveBeenCalledTimes(1);
    expect(deploy.mock.calls[0][0]).toEqual(edited);
    expect(textOf(resumed.events)).toContain('with edited arguments {\\"service\\":\\"api\\",\\"replicas\\":5,\\"region\\":\\"eu\\"}');
    expect(textOf(resumed.events)).toContain('deployed api x5');
  });

  it('given a plain approval, should run the action with the arguments the agent proposed', async () => {
    const { interrupt, messages } = await proposeDeploy('t-plain');
    await run('t-plain', { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }] }, messages);
    expect(deploy.mock.calls).toEqual([[proposed, expect.objectContaining({ action: 'Deploy the api' })]]);
  });

  it('given a rejection with a reason, should not run the action, and the model should see the reason', async () => {
    const { interrupt, messages } = await proposeDeploy('t-reject');
    const resumed = await run(
      't-reject',
      { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: false, reason: 'Not on a Friday' } }] },
      messages,
    );
    expect(deploy).not.toHaveBeenCalled();
    expect(textOf(resumed.events)).toContain('The user rejected \\"Deploy the api\\": Not on a Friday');
  });
});
