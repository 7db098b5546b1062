import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AbstractAgent, HttpAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { createCopilotNodeListener } from '@copilotkit/runtime/v2/node';
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeInterrupts } from '../../../src/runtime';

process.env.COPILOTKIT_TELEMETRY_DISABLED = 'true';
const SHARED_SECRET = 'the-secret-every-process-of-this-app-shares';

// Through CopilotRuntime over HTTP: a legacy-only agent (on_interrupt CUSTOM events,
// forwardedProps.command resumes). The answers are sent to ANOTHER server process than the one
// that raised the interrupts (as after a restart, or behind a load balancer): nothing may depend
// on what the first one remembered.
const commands: { threadId: string; command: unknown }[] = [];

class LegacyAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      subscriber.next({ type: 'RUN_STARTED', threadId, runId } as BaseEvent);
      const command = (input.forwardedProps as { command?: unknown } | undefined)?.command;
      if (command) {
        commands.push({ threadId, command });
        const id = `reply-${runId}`;
        subscriber.next({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: `Got ${JSON.stringify(command)}` } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_END', messageId: id } as BaseEvent);
      } else {
        // Fixed ids, as in the protocol's examples: every thread raises the same two.
        for (const [id, question] of [
          ['interrupt_db', `Which database for ${threadId}?`],
          ['interrupt_region', `Which region for ${threadId}?`],
        ]) {
          subscriber.next({
            type: 'CUSTOM',
            name: 'on_interrupt',
            value: JSON.stringify({ id, reason: 'aidev:user_question', metadata: { questions: [{ question }] } }),
          } as BaseEvent);
        }
      }
      subscriber.next({ type: 'RUN_FINISHED', threadId, runId } as BaseEvent);
      subscriber.complete();
    });
  }
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve)))));
  commands.length = 0;
});

/** One server process: CopilotRuntime with the legacy agent and a middleware of its own. */
async function startServer(): Promise<string> {
  // Every process of one app is configured with the same secret, so each accepts the ids another issued.
  const runtime = new CopilotRuntime({
    agents: { default: new LegacyAgent().use(normalizeInterrupts({ secret: SHARED_SECRET })) } as never,
  });
  const listener = createCopilotNodeListener({ runtime, basePath: '/api/copilotkit', cors: true, activateChannels: false });
  const server = createServer((req, res) => void listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/copilotkit/agent/default/run`;
}

async function run(agent: HttpAgent, params: Record<string, unknown> = {}) {
  const events: BaseEvent[] = [];
  await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
  return events;
}
const interruptsOf = (events: BaseEvent[]) => ((events.find((e) => e.type === 'RUN_FINISHED') as any)?.outcome?.interrupts ?? []) as any[];

describe('normalizeInterrupts through CopilotRuntime, answered on another server', () => {
  it('given two threads that each raised two legacy interrupts with the same ids, every answer reaches its own thread', async () => {
    const [first, second] = [await startServer(), await startServer()];
    const threads = ['thread-a', 'thread-b'].map((threadId) => {
      const agent = new HttpAgent({ url: first, threadId, agentId: 'default' });
      agent.addMessage({ id: `u-${threadId}`, role: 'user', content: 'Ask me' });
      return agent;
    });
    const raised = await Promise.all(threads.map(async (agent) => interruptsOf(await run(agent))));
    for (const interrupts of raised) expect(interrupts.map((i) => i.reason)).toEqual(['aidev:user_question', 'aidev:user_question']);

    // The answers go to the second server, thread b first.
    const answered = [threads[1], threads[0]].map((agent) => {
      const other = new HttpAgent({ url: second, threadId: agent.threadId, agentId: 'default' });
      other.setMessages(agent.messages);
      return other;
    });
    for (const agent of answered) {
      const interrupts = raised[agent.threadId === 'thread-a' ? 0 : 1];
      await run(agent, {
        resume: interrupts.map((interrupt, n) => ({
          interruptId: interrupt.id,
          status: 'resolved',
          payload: `${agent.threadId} answer ${n}`,
        })),
      });
    }

    const commandOf = (threadId: string) => commands.find((c) => c.threadId === threadId)?.command as any;
    for (const threadId of ['thread-a', 'thread-b']) {
      expect(commandOf(threadId).resume).toEqual({ interrupt_db: `${threadId} answer 0`, interrupt_region: `${threadId} answer 1` });
      // The event that travels with the answers is this thread's, not the other one's.
      expect(JSON.parse(commandOf(threadId).interruptEvent)).toMatchObject({
        id: 'interrupt_db',
        metadata: { questions: [{ question: `Which database for ${threadId}?` }] },
      });
    }
  });
});
