import type { AbstractAgent, BaseEvent } from '@ag-ui/client';
import { MastraAgent } from '@ag-ui/mastra';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { LibSQLStore } from '@mastra/libsql';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, type ScriptedTurn } from '../../../demo/server/scripted-model';
import { withNormalizedInterrupts } from '../../../src/runtime';
import { MISSING_BRIDGE_INTERNALS } from '../../../src/backends/mastra/tool-approvals';
import { isToolApprovalInterrupt, unwrapInterrupt } from '../../../src/unwrap';

process.env.MASTRA_TELEMETRY_DISABLED = 'true';

// Mastra's own tool approvals (`requireApproval: true`, or the agent's `requireToolApproval`)
// through the real @ag-ui/mastra bridge and withNormalizedInterrupts: a card, and the answer is
// Mastra's approve / decline.
const executed: { tool: string; args: unknown }[] = [];

/** The model: quotes any tool outcome after the last user message, else calls the tool the user named. */
function decide(prompt: unknown): ScriptedTurn {
  const messages = prompt as { role: string; content: unknown }[];
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const outcomes = messages
    .slice(lastUser + 1)
    .filter((m) => m.role === 'tool' && Array.isArray(m.content))
    .flatMap((m) =>
      (m.content as { type: string; output?: unknown }[]).filter((p) => p.type === 'tool-result').map((p) => JSON.stringify(p.output)),
    );
  if (outcomes.length > 0) return { kind: 'text', text: `Model saw: ${outcomes.join(' ')}` };
  const said = JSON.stringify(messages[lastUser]?.content ?? '');
  if (said.includes('rename')) return { kind: 'tool', toolName: 'rename_branch', input: { name: 'old-feature', to: 'archive' } };
  if (said.includes('delete')) return { kind: 'tool', toolName: 'delete_branch', input: { name: 'old-feature' } };
  return { kind: 'text', text: 'Hello.' };
}

let agents: Record<string, AbstractAgent>;
let mastra: Mastra;
beforeAll(() => {
  const deleteBranch = createTool({
    id: 'delete_branch',
    description: 'Deletes a git branch',
    inputSchema: z.object({ name: z.string() }),
    requireApproval: true,
    execute: async (args) => {
      executed.push({ tool: 'delete_branch', args });
      return `Deleted ${(args as { name: string }).name}.`;
    },
  });
  const renameBranch = createTool({
    id: 'rename_branch',
    description: 'Renames a git branch',
    inputSchema: z.object({ name: z.string(), to: z.string() }),
    execute: async (args) => {
      executed.push({ tool: 'rename_branch', args });
      return `Renamed to ${(args as { to: string }).to}.`;
    },
  });
  const model = createScriptedModel(decide as never) as never;
  mastra = new Mastra({
    agents: {
      tools: new Agent({ id: 'tools', name: 'tools', instructions: 'Use the tools.', model, tools: { delete_branch: deleteBranch } }),
      careful: new Agent({
        id: 'careful',
        name: 'careful',
        instructions: 'Use the tools.',
        model,
        tools: { rename_branch: renameBranch },
        defaultOptions: { requireToolApproval: true },
      }),
    },
    storage: new LibSQLStore({ id: 'tool-approvals-test', url: ':memory:' }),
    logger: false,
  });
  const bridged = MastraAgent.getLocalAgents({ mastra, resourceId: 'approvals-test' });
  // All an app writes: the wrapper, once, on the agent it registers.
  agents = { tools: withNormalizedInterrupts(bridged.tools), careful: withNormalizedInterrupts(bridged.careful) } as never;
});
afterEach(() => {
  executed.length = 0;
});

let threads = 0;
type Turn = { events: BaseEvent[]; agent: AbstractAgent };
async function say(agentId: string, text: string): Promise<Turn> {
  const agent = agents[agentId].clone() as AbstractAgent;
  agent.threadId = `approval-thread-${++threads}`;
  agent.addMessage({ id: `u-${threads}`, role: 'user', content: text });
  const events: BaseEvent[] = [];
  await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
  return { events, agent };
}
async function answer(agentId: string, turn: Turn, entry: { status: 'resolved' | 'cancelled'; payload?: unknown }): Promise<Turn> {
  const [interrupt] = interruptsOf(turn.events);
  const agent = agents[agentId].clone() as AbstractAgent;
  agent.threadId = turn.agent.threadId;
  agent.setMessages(turn.agent.messages);
  const events: BaseEvent[] = [];
  await agent.runAgent({ resume: [{ interruptId: interrupt.id, ...entry }] } as never, { onEvent: ({ event }) => void events.push(event) });
  return { events, agent };
}
const interruptsOf = (events: BaseEvent[]): any[] => (events.find((e) => e.type === 'RUN_FINISHED') as any)?.outcome?.interrupts ?? [];
const textOf = (events: BaseEvent[]) =>
  events
    .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT' || e.type === 'TEXT_MESSAGE_CHUNK')
    .map((e) => (e as any).delta)
    .join('');
const suspendedRuns = async (agentId: string, threadId: string) => (await mastra.getAgent(agentId).listSuspendedRuns({ threadId })).runs;

describe.each([
  ['a tool with requireApproval: true', 'tools', 'delete the branch', 'delete_branch', { name: 'old-feature' }],
  ["an agent's requireToolApproval", 'careful', 'rename the branch', 'rename_branch', { name: 'old-feature', to: 'archive' }],
])('Mastra native tool approval: %s', (_name, agentId, request, toolName, args) => {
  it('given the model calls the tool, the browser gets a direct-mode approval card and the tool does not run yet', async () => {
    const turn = await say(agentId, request);
    const [interrupt] = interruptsOf(turn.events);
    // Mastra's approve cannot take edited arguments: the card offers no Edit.
    expect(interrupt).toMatchObject({ reason: 'aidev:tool_approval', metadata: { toolName, args, allowEdit: false } });
    const card = unwrapInterrupt(interrupt);
    expect(isToolApprovalInterrupt(card)).toBe(true);
    expect(card.metadata.ticket).toBeUndefined();
    expect(executed).toEqual([]);
  });

  it('given Approve, the tool runs with its arguments and the model sees its result', async () => {
    const turn = await say(agentId, request);
    const resumed = await answer(agentId, turn, { status: 'resolved', payload: { approved: true } });
    expect(executed).toEqual([{ tool: toolName, args }]);
    expect(textOf(resumed.events)).toContain('Model saw:');
    expect(await suspendedRuns(agentId, turn.agent.threadId)).toEqual([]);
  });

  it('given Reject with a reason, the tool does not run and the model sees the reason', async () => {
    const turn = await say(agentId, request);
    const resumed = await answer(agentId, turn, { status: 'resolved', payload: { approved: false, reason: 'keep it for now' } });
    expect(executed).toEqual([]);
    expect(textOf(resumed.events)).toContain('keep it for now');
    expect(await suspendedRuns(agentId, turn.agent.threadId)).toEqual([]);
  });

  it('given an approval that carries edited arguments, the unedited call does not run and the model sees what the user wanted', async () => {
    const turn = await say(agentId, request);
    const edited = { ...args, name: 'edited-name' };
    const resumed = await answer(agentId, turn, { status: 'resolved', payload: { approved: true, editedArgs: edited } });
    expect(executed).toEqual([]);
    expect(textOf(resumed.events)).toContain('edited-name');
    expect(await suspendedRuns(agentId, turn.agent.threadId)).toEqual([]);
  });

  it.each([
    ['the text "false"', { approved: 'false' }],
    ['the number 1', { approved: 1 }],
    ['nothing', {}],
    ['a text answer', 'yes'],
  ])(
    'given an answer whose approved is %s, the tool does not run, the run does not stay suspended, and the console says why',
    async (_name, payload) => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        const turn = await say(agentId, request);
        await answer(agentId, turn, { status: 'resolved', payload });
        expect(executed).toEqual([]);
        expect(await suspendedRuns(agentId, turn.agent.threadId)).toEqual([]);
        expect(warn).toHaveBeenCalledWith(
          expect.stringContaining('A tool approval answer has no true or false `approved`; it declines the call.'),
        );
      } finally {
        warn.mockRestore();
      }
    },
  );

  it('given an approval whose edited arguments cannot be written out (a cycle), the call is declined and the model is told', async () => {
    const turn = await say(agentId, request);
    const edited: Record<string, unknown> = { ...args };
    edited.self = edited;
    const resumed = await answer(agentId, turn, { status: 'resolved', payload: { approved: true, editedArgs: edited } });
    expect(executed).toEqual([]);
    expect(textOf(resumed.events)).toContain('could not be written out');
    expect(await suspendedRuns(agentId, turn.agent.threadId)).toEqual([]);
  });

  it('given the card is dismissed, the tool call is declined and the run does not stay suspended', async () => {
    const turn = await say(agentId, request);
    expect(await suspendedRuns(agentId, turn.agent.threadId)).toHaveLength(1);
    const resumed = await answer(agentId, turn, { status: 'cancelled' });
    expect(executed).toEqual([]);
    expect(textOf(resumed.events)).toContain('dismissed');
    expect(await suspendedRuns(agentId, turn.agent.threadId)).toEqual([]);
  });
});

describe('Mastra native tool approval without the bridge internals it relies on', () => {
  it('says so in the console instead of leaving approvals silently unanswerable', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      // A MastraAgent from a bridge version without createChunkProcessor.
      class MastraAgentLike {
        middlewares: unknown[] = [];
        isLocalMastraAgent() {
          return true;
        }
        use() {
          return this;
        }
        clone() {
          return new MastraAgentLike();
        }
      }
      const agent = withNormalizedInterrupts(new MastraAgentLike());
      agent.clone();
      expect(warn).toHaveBeenCalledWith(MISSING_BRIDGE_INTERNALS);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('Mastra native tool approval: an id the browser did not get for this card', () => {
  /** Approves `id` on the thread of `turn` (another request, as CopilotRuntime makes one per answer). */
  async function approve(turn: Turn, id: string): Promise<BaseEvent[]> {
    const agent = agents.tools.clone() as AbstractAgent;
    agent.threadId = turn.agent.threadId;
    agent.setMessages(turn.agent.messages);
    const events: BaseEvent[] = [];
    await agent.runAgent({ resume: [{ interruptId: id, status: 'resolved', payload: { approved: true } }] } as never, {
      onEvent: ({ event }) => void events.push(event),
    });
    return events;
  }
  const parts = (id: string) => /^mastra-approval::(.+)::([^:]+?)\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]{43})$/.exec(id)!.slice(1);

  it("given the approval id of another run (another thread's card), approving it here runs no tool and both runs stay suspended", async () => {
    const mine = await say('tools', 'delete the branch');
    const theirs = await say('tools', 'delete the branch');
    const [theirCard] = interruptsOf(theirs.events);
    const events = await approve(mine, theirCard.id);
    expect(events).toEqual([
      expect.objectContaining({ type: 'RUN_ERROR', code: 'interrupt_id_refused', message: expect.stringContaining('another thread') }),
    ]);
    expect(executed).toEqual([]);
    expect(await suspendedRuns('tools', mine.agent.threadId)).toHaveLength(1);
    expect(await suspendedRuns('tools', theirs.agent.threadId)).toHaveLength(1);
  });

  it("given this card's id rewritten to name another run, approving it runs no tool and both runs stay suspended", async () => {
    const other = await say('tools', 'delete the branch');
    const mine = await say('tools', 'delete the branch');
    const [otherRun] = parts(interruptsOf(other.events)[0].id);
    const [myRun, toolCallId, fingerprint, signature] = parts(interruptsOf(mine.events)[0].id);
    expect(otherRun).not.toBe(myRun);
    const forged = `mastra-approval::${otherRun}::${toolCallId}.${fingerprint}.${signature}`;
    const events = await approve(mine, forged);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'RUN_ERROR',
        code: 'interrupt_id_refused',
        message: expect.stringContaining('signature does not match'),
      }),
    ]);
    expect(executed).toEqual([]);
    expect(await suspendedRuns('tools', mine.agent.threadId)).toHaveLength(1);
    expect(await suspendedRuns('tools', other.agent.threadId)).toHaveLength(1);
  });

  it.each([
    ['the approval id without its signature', (run: string, call: string) => `mastra-approval::${run}::${call}`, 'no signature'],
    ["the bridge's own id (runId::toolCallId)", (run: string, call: string) => `${run}::${call}`, 'not an id this server issued'],
  ])('given %s, approving it runs no tool and the run stays suspended', async (_name, idFor, reason) => {
    const mine = await say('tools', 'delete the branch');
    const [run, toolCallId] = parts(interruptsOf(mine.events)[0].id);
    const events = await approve(mine, idFor(run, toolCallId));
    expect(events).toEqual([
      expect.objectContaining({ type: 'RUN_ERROR', code: 'interrupt_id_refused', message: expect.stringContaining(reason) }),
    ]);
    expect(executed).toEqual([]);
    expect(await suspendedRuns('tools', mine.agent.threadId)).toHaveLength(1);
  });
});
