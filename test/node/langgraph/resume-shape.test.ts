import { randomUUID } from 'node:crypto';
import type { AbstractAgent, BaseEvent, RunAgentInput } from '@ag-ui/client';
import { LangGraphAgent } from '@copilotkit/runtime/langgraph';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveGraphs, type ServedGraphs } from '../../../demo/server/langgraph-server';
import { normalizeInterrupts } from '../../../src/runtime';
import { createInterruptGraph, type Received } from './interrupt-graph';

// How answers reach @ag-ui/langgraph: as RunAgentInput.resume[] (it calls forwardedProps.command.resume
// deprecated and logs so on every resume), one entry whose payload is LangGraph's resume map, which
// the bridge hands to LangGraph unchanged. Every way of answering two open interrupts is tried.
const received: Received = [];
let served: ServedGraphs;
/** What the bridge itself was given, run by run. */
const given: RunAgentInput[] = [];
class RecordingLangGraphAgent extends LangGraphAgent {
  override run(input: RunAgentInput) {
    given.push(input);
    return super.run(input);
  }
}
beforeAll(async () => {
  served = await serveGraphs({ interrupts: createInterruptGraph(received) });
}, 60_000);
afterAll(async () => {
  await served?.close();
});
afterEach(() => vi.restoreAllMocks());

type Interrupt = { id: string; message?: string };
const langGraphIdOf = (id: string) => id.slice('langgraph::'.length, id.indexOf('.'));

async function openParallel(emitInterruptOutcome: boolean) {
  const registered = new RecordingLangGraphAgent({ deploymentUrl: served.url, graphId: 'interrupts', emitInterruptOutcome } as never).use(
    normalizeInterrupts({ secret: 'a-test-secret-of-at-least-32-characters' }),
  ) as unknown as AbstractAgent;
  const agent = registered.clone();
  agent.threadId = randomUUID();
  agent.addMessage({ id: randomUUID(), role: 'user', content: 'Parallel questions please' });
  const events: BaseEvent[] = [];
  await agent.runAgent({} as never, { onEvent: ({ event }: { event: BaseEvent }) => void events.push(event) });
  const finished = events.find((e) => e.type === 'RUN_FINISHED') as { outcome?: { interrupts: Interrupt[] } };
  const interrupts = finished.outcome?.interrupts ?? [];
  const resume = async (entries: object[]) => {
    const next = registered.clone();
    next.threadId = agent.threadId;
    next.setMessages(agent.messages);
    await next.runAgent({ resume: entries } as never);
  };
  return {
    left: interrupts.find((i) => i.message === 'Left question')!,
    right: interrupts.find((i) => i.message === 'Right question')!,
    resume,
  };
}

/** Every way to answer a subset of the two: each side left out, answered, or cancelled. */
const WAYS = ['left out', 'answered', 'cancelled'] as const;
const CASES = WAYS.flatMap((left) => WAYS.map((right) => [left, right] as const)).filter(([l, r]) => l !== 'left out' || r !== 'left out');

describe.each([false, true])('LangGraph resumes as RunAgentInput.resume[] (emitInterruptOutcome: %s)', (emitInterruptOutcome) => {
  it.each(CASES)(
    'given left %s and right %s, the bridge gets one resume entry holding the map, each node its own answer, and nothing is logged',
    async (leftWay, rightWay) => {
      const warn = vi.spyOn(console, 'warn');
      const error = vi.spyOn(console, 'error');
      const { left, right, resume } = await openParallel(emitInterruptOutcome);
      const entry = (interrupt: Interrupt, way: (typeof WAYS)[number], payload: string) =>
        way === 'left out'
          ? []
          : [
              way === 'answered'
                ? { interruptId: interrupt.id, status: 'resolved', payload }
                : { interruptId: interrupt.id, status: 'cancelled' },
            ];
      const start = received.length;
      const before = given.length;
      await resume([...entry(left, leftWay, 'for the left'), ...entry(right, rightWay, 'for the right')]);

      const expectedOf = (interrupt: Interrupt, way: (typeof WAYS)[number], payload: string) =>
        way === 'answered' ? payload : { __agui_cancelled__: true, interrupt_id: langGraphIdOf(interrupt.id) };
      const map: Record<string, unknown> = {};
      if (leftWay !== 'left out') map[langGraphIdOf(left.id)] = expectedOf(left, leftWay, 'for the left');
      if (rightWay !== 'left out') map[langGraphIdOf(right.id)] = expectedOf(right, rightWay, 'for the right');
      const [input] = given.slice(before);
      expect((input.forwardedProps as { command?: unknown } | undefined)?.command).toBeUndefined();
      expect(input.resume).toEqual([{ interruptId: Object.keys(map)[0], status: 'resolved', payload: map }]);
      expect({ ...(input.resume![0].payload as object) }).toEqual(map);

      const got = received.slice(start).sort((a, b) => a.node.localeCompare(b.node));
      const expected = [
        ...(leftWay === 'left out' ? [] : [{ node: 'left', value: map[langGraphIdOf(left.id)] }]),
        ...(rightWay === 'left out' ? [] : [{ node: 'right', value: map[langGraphIdOf(right.id)] }]),
      ];
      expect(got).toEqual(expected);
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    },
  );
});
