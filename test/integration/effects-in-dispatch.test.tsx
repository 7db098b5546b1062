/**
 * The controller's effects happen in one place: its dispatch, which the interpreter
 * (`src/controller/effects.ts`, `Effects.carryOut`) serves. Through the real provider and chat,
 * every port the controller could touch records who touched it: the agent's pending interrupts,
 * methods and transcript, CopilotKit's runs, the history's writes and the app's callback. Whatever
 * the controller did (an answer sent, a chat message that dismissed a card and carried its
 * `cancelled`, an expired sibling let go, a legacy event, a failed run and Retry, a remount) went
 * through the interpreter: no write of the controller's outside it.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CopilotChat, CopilotKitProvider, useCopilotKit } from '@copilotkit/react-core/v2';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInterruptHistory, type InterruptHistory } from '../../src/history';
import type { InterruptRenderersConfig } from '../../hooks/types';
import { customEvent, interruptOutcome, runError, runFinished, runStarted, ScriptedAgent } from '../helpers/scripted-agent';
import { Interrupts, sendMessage } from './harness';
import { A, B, renderers, reply } from './remount-page';

/** One touch of a port: what it was, and the call stack that made it. */
interface Touch {
  what: string;
  stack: string;
}

let touches: Touch[] = [];
const record = (what: string) => touches.push({ what, stack: new Error().stack ?? '' });
const stackLimit = Error.stackTraceLimit;
beforeEach(() => {
  touches = [];
  Error.stackTraceLimit = 100;
});
afterEach(() => {
  Error.stackTraceLimit = stackLimit;
  vi.restoreAllMocks();
});

/** The controller's own touches (its files on the stack), and those made outside the interpreter. */
function controllerTouches() {
  const own = touches.filter((t) => t.stack.includes('/src/controller/'));
  return { own, outside: own.filter((t) => !/Effects\.carryOut/.test(t.stack)).map((t) => `${t.what}\n${t.stack}`) };
}

/** The agent's state the controller may change, each write recorded. */
function watchAgent(agent: ScriptedAgent) {
  let pending = agent.pendingInterrupts;
  Object.defineProperty(agent, 'pendingInterrupts', {
    configurable: true,
    get: () => pending,
    set: (value) => {
      record('agent.pendingInterrupts');
      pending = value;
    },
  });
  for (const name of ['runAgent', 'connectAgent'] as const) {
    let method: unknown = undefined;
    Object.defineProperty(agent, name, {
      configurable: true,
      get: () => method ?? Object.getPrototypeOf(agent)[name],
      set: (value) => {
        record(`agent.${name} =`);
        method = value;
      },
    });
  }
  const setMessages = agent.setMessages.bind(agent);
  agent.setMessages = (messages) => {
    record('agent.setMessages');
    setMessages(messages);
  };
  return agent;
}

/** The history, each write recorded. */
function watchedHistory(): InterruptHistory {
  const history = createInterruptHistory();
  const { record: write, update } = history;
  return Object.assign(history, {
    record: (...args: Parameters<InterruptHistory['record']>) => {
      record('history.record');
      return write(...args);
    },
    update: (...args: Parameters<InterruptHistory['update']>) => {
      record('history.update');
      return update(...args);
    },
  });
}

/** CopilotKit's runs and connects, each call recorded. */
function watchCopilotKit(copilotkit: unknown) {
  const core = copilotkit as Record<'runAgent' | 'connectAgent', (...args: unknown[]) => unknown> & { watched?: boolean };
  if (core.watched) return;
  core.watched = true;
  for (const name of ['runAgent', 'connectAgent'] as const) {
    const original = core[name].bind(core);
    core[name] = (...args: unknown[]) => {
      record(`copilotkit.${name}`);
      return original(...args);
    };
  }
}

function WatchCopilotKit() {
  const { copilotkit } = useCopilotKit();
  useEffect(() => watchCopilotKit(copilotkit), [copilotkit]);
  return null;
}

function Page({ agent, history, hookKey = 0 }: { agent: ScriptedAgent; history: InterruptHistory; hookKey?: number }) {
  const config: InterruptRenderersConfig = {
    resolveDelayMs: 0,
    renderers,
    history,
    onInterruptResume: () => void record('app.onInterruptResume'),
  };
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <WatchCopilotKit />
      <Interrupts key={hookKey} {...config} />
      <div style={{ height: 600 }}>
        <CopilotChat threadId="thread-effects" />
      </div>
    </CopilotKitProvider>
  );
}

describe('the controller touches the agent, CopilotKit, the history and the app only from its dispatch', () => {
  it('given a set answered and sent, a second set dismissed by a chat message with its expired sibling, and a remount, should make every touch from the interpreter', async () => {
    const agent = watchAgent(
      new ScriptedAgent((input, n) => {
        if (n === 0) return [runStarted(input), runFinished(input, interruptOutcome(A, B))];
        if (n === 1)
          return [
            runStarted(input),
            runFinished(input, interruptOutcome({ ...A, expiresAt: new Date(Date.now() + 300).toISOString() }, B)),
          ];
        return reply(input, n, 'All received.');
      }),
    );
    const history = watchedHistory();
    const view = render(<Page agent={agent} history={history} />);
    await sendMessage('Two things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    await waitFor(() => expect(agent.runs).toHaveLength(2));
    await screen.findAllByText('status: pending');

    // The hook remounts (its wrappers come off and go on again), A expires, and the user chats on.
    view.rerender(<Page agent={agent} history={history} hookKey={1} />);
    await waitFor(() => expect(screen.getAllByText('status: expired').length).toBeGreaterThan(0), { timeout: 3000 });
    await sendMessage('Something else');
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs[2].resume).toEqual([
      { interruptId: 'int-a', status: 'cancelled' },
      { interruptId: 'int-b', status: 'cancelled' },
    ]);
    view.unmount();

    const { own, outside } = controllerTouches();
    const kinds = new Set(own.map((t) => t.what));
    // Not vacuous: the controller made each kind of touch here.
    for (const kind of [
      'agent.pendingInterrupts',
      'agent.runAgent =',
      'agent.connectAgent =',
      'copilotkit.runAgent',
      'history.record',
      'app.onInterruptResume',
    ])
      expect(kinds).toContain(kind);
    expect(outside).toEqual([]);
  });

  it('given a legacy event, and a resume run that fails before Retry sends it again, should make every touch from the interpreter', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // the failed run, reported
    const event = JSON.stringify({ id: 'event-b', reason: 'acme:b', message: 'Proceed?' });
    const agent = watchAgent(
      new ScriptedAgent((input, n) => {
        if (n === 0) return [runStarted(input), customEvent('on_interrupt', event), runFinished(input)];
        if (n === 1) return [runStarted(input), runFinished(input, interruptOutcome(A))];
        if (n === 2) return [runStarted(input), runError('The model is away.')];
        return reply(input, n, 'All received.');
      }),
    );
    const history = watchedHistory();
    const view = render(<Page agent={agent} history={history} />);
    await sendMessage('Go on');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    await waitFor(() => expect(agent.runs).toHaveLength(2));
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    const retry = await screen.findByRole('button', { name: 'Retry a' });
    await act(async () => fireEvent.click(retry));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    view.unmount();

    const { own, outside } = controllerTouches();
    expect(own.map((t) => t.what)).toContain('copilotkit.runAgent');
    expect(own.map((t) => t.what)).toContain('history.update');
    expect(outside).toEqual([]);
  });
});
