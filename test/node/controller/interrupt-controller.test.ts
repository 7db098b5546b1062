import { CopilotKitCore } from '@copilotkit/core';
import { EventType, type BaseEvent } from '@ag-ui/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInterruptHistory } from '../../../src/history';
import { InterruptController, type ControlledAgent, type ControlledCopilotKit } from '../../../src/controller';
import { ScriptedAgent, customEvent, interruptOutcome, runFinished, runStarted, textMessage } from '../../helpers/scripted-agent';

// The controller without React: the real CopilotKit core (the framework-free half of CopilotKit
// that the provider wraps) runs a scripted AG-UI agent, and the controller carries out the
// session's decisions on it. What a user would see is read from the history and the waiting set.

const ask = (id: string) => ({ id, reason: 'acme:ask', message: `Question ${id}` });

function setUp(script: ConstructorParameters<typeof ScriptedAgent>[0], onChatWhileOpen?: 'dismiss' | 'block') {
  const agent = new ScriptedAgent(script, { agentId: 'default', threadId: 'thread-1' });
  const core = new CopilotKitCore({ agents__unsafe_dev_only: { default: agent } });
  const history = createInterruptHistory();
  const controller = new InterruptController(history, { agentId: 'default', resolveDelayMs: 0, onChatWhileOpen }, { view: 'unused' });
  const detach = controller.attach(agent as unknown as ControlledAgent, core as unknown as ControlledCopilotKit);
  let notified = 0;
  const unsubscribe = controller.subscribe(() => notified++);
  cleanups.push(() => {
    unsubscribe();
    detach();
  });
  return { agent, core, history, controller, notifications: () => notified };
}

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** Waits until `check` holds, polling the event loop (the controller waits for a paint, then a macrotask, without a DOM). */
async function until(check: () => boolean, timeoutMs = 5000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('InterruptController (node, real CopilotKit core)', () => {
  it('given an agent that stops with two questions, should draw both and send one resume once both are answered', async () => {
    const { agent, core, history, controller } = setUp((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(ask('a'), ask('b')))]
        : [runStarted(input), ...textMessage(`reply-${n}`, 'Thanks.'), runFinished(input)],
    );
    await core.runAgent({ agent });
    expect(controller.waiting.map((i) => i.id)).toEqual(['a', 'b']);
    expect(controller.pendingCount).toBe(2);

    const [a, b] = controller.waiting;
    controller.answer(a!, 'yes');
    expect(history.get('thread-1', 'a')?.status).toBe('submitting');
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Nothing goes out while a card of the set still waits for the user.
    expect(agent.runs).toHaveLength(1);

    controller.answer(b!, 'no');
    await until(() => history.get('thread-1', 'b')?.status === 'resolved');
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1]!.resume).toEqual([
      { interruptId: 'a', status: 'resolved', payload: 'yes' },
      { interruptId: 'b', status: 'resolved', payload: 'no' },
    ]);
    expect(history.getSnapshot('thread-1').map((r) => [r.id, r.status, r.result])).toEqual([
      ['a', 'resolved', 'yes'],
      ['b', 'resolved', 'no'],
    ]);
    expect(controller.waiting).toEqual([]);
    expect(controller.pendingCount).toBe(0);
  });

  it('given an answer the durable runner refuses because another device answered first, should settle the card with the answer that won', async () => {
    const { agent, core, history, controller } = setUp((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(ask('a')))]
        : [
            {
              type: EventType.RUN_ERROR,
              message: 'interrupt "a" was already answered (resolved); only the first answer counts.',
              code: 'interrupt_already_answered',
              answers: [{ interruptId: 'a', status: 'resolved', payload: 'from the phone' }],
            } as unknown as BaseEvent,
          ],
    );
    await core.runAgent({ agent });
    controller.answer(controller.waiting[0]!, 'from the laptop');
    await until(() => history.get('thread-1', 'a')?.elsewhere === true);
    expect(history.get('thread-1', 'a')).toMatchObject({ status: 'resolved', result: 'from the phone', elsewhere: true });
    // AG-UI's client no longer counts it as waiting: the next message is not refused.
    expect(agent.pendingInterrupts ?? []).toEqual([]);
  });

  it('given an approval the server refuses because the request changed, should say so and offer no Retry of the same answer', async () => {
    const { agent, core, history, controller } = setUp((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(ask('a')))]
        : [
            {
              type: EventType.RUN_ERROR,
              message: 'interrupt "a": the approval no longer matches.',
              code: 'interrupt_changed',
            } as unknown as BaseEvent,
          ],
    );
    await core.runAgent({ agent });
    controller.answer(controller.waiting[0]!, { approved: true });
    await until(() => history.get('thread-1', 'a')?.status === 'error');
    expect(history.get('thread-1', 'a')?.error).toBe('This request changed. Review it again.');
    expect(controller.cardSnapshot('thread-1', 'a').canRetry).toBe(false);
  });

  it('given a refusal as changed that carries the requests open now, should draw them, mark only the changed one, and send the next answers under their new ids', async () => {
    const approval = (id: string, name: string) => ({
      id,
      reason: 'aidev:tool_approval',
      metadata: { toolName: 'delete_branch', args: { name } },
    });
    const { agent, core, history, controller } = setUp((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(ask('q'), approval('a', 'old')))]
        : n === 1
          ? [
              {
                type: EventType.RUN_ERROR,
                message: 'interrupt "a": the approval no longer matches.',
                code: 'interrupt_changed',
                interrupts: [ask('q'), approval('a-now', 'main')],
              } as unknown as BaseEvent,
            ]
          : [runStarted(input), ...textMessage(`reply-${n}`, 'Done.'), runFinished(input)],
    );
    await core.runAgent({ agent });
    const [q, a] = controller.waiting;
    controller.answer(q!, 'eu');
    controller.answer(a!, { approved: true });
    await until(() => controller.waiting.length === 2 && controller.waiting[1]!.id !== 'a');

    // The refused answers say why, with no Retry; the requests as they are now wait, the changed one saying so.
    expect(history.get('thread-1', 'a')).toMatchObject({ status: 'error', error: 'This request changed. Review it again.' });
    expect(controller.cardSnapshot('thread-1', 'a').canRetry).toBe(false);
    const [q2, a2] = controller.waiting;
    expect(a2!.metadata).toMatchObject({ args: { name: 'main' } });
    expect(controller.cardSnapshot('thread-1', a2!.id).changed).toBe(true);
    expect(controller.cardSnapshot('thread-1', q2!.id).changed).toBe(false);
    expect(controller.reopened).toEqual([q2, a2]);

    controller.answer(q2!, 'eu');
    controller.answer(a2!, { approved: true });
    await until(() => agent.runs.length === 3 && controller.waiting.length === 0);
    expect(agent.runs[2]!.resume).toEqual([
      { interruptId: 'q', status: 'resolved', payload: 'eu' },
      { interruptId: 'a-now', status: 'resolved', payload: { approved: true } },
    ]);
    expect(controller.reopened).toBeUndefined();
  });

  it('given a dismissal, should send cancelled for it and keep the card as cancelled', async () => {
    const { agent, core, history, controller } = setUp((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(ask('a')))] : [runStarted(input), runFinished(input)],
    );
    await core.runAgent({ agent });
    controller.dismiss(controller.waiting[0]!);
    // Read-only at once; the cancel goes out once that state is painted.
    expect(history.get('thread-1', 'a')?.status).toBe('cancelled');
    await until(() => agent.runs.length === 2);
    expect(agent.runs[1]!.resume).toEqual([{ interruptId: 'a', status: 'cancelled' }]);
  });

  it('should tell listeners when the waiting set changes', async () => {
    const { agent, core, controller, notifications } = setUp((input) => [
      runStarted(input),
      runFinished(input, interruptOutcome(ask('a'))),
    ]);
    const before = notifications();
    await core.runAgent({ agent });
    expect(notifications()).toBeGreaterThan(before);
    expect(controller.waiting).toHaveLength(1);
  });

  it('given an answer, should write its record and tell listeners once for the whole batch of decisions', async () => {
    const { agent, core, history, controller, notifications } = setUp((input) => [
      runStarted(input),
      runFinished(input, interruptOutcome(ask('a'), ask('b'))),
    ]);
    await core.runAgent({ agent });
    let seen: string | undefined;
    controller.subscribe(() => (seen ??= history.get('thread-1', 'a')?.status));
    const before = notifications();
    controller.answer(controller.waiting[0]!, 'yes');
    // One notification, and by then the record already says what the card shows.
    expect(notifications() - before).toBe(1);
    expect(seen).toBe('submitting');
  });

  it('given an open set, when the agent is pointed at another thread, should let go of its pending interrupts, hide the cards, and keep the answer given with its thread', async () => {
    const { agent, core, history, controller } = setUp((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(ask('a'), ask('b')))] : [runStarted(input), runFinished(input)],
    );
    await core.runAgent({ agent });
    const [a] = controller.waiting;
    controller.answer(a!, 'yes');
    expect(agent.pendingInterrupts).toHaveLength(2);

    agent.threadId = 'thread-2';
    await core.runAgent({ agent }); // the new thread's first run: the controller follows it
    expect(controller.threadId).toBe('thread-2');
    expect(controller.cardSnapshot('thread-1', 'a').steppedAside).toBe(true);
    expect(agent.pendingInterrupts).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Kept, not failed: no error on the card, nothing sent to the other thread for it.
    expect(history.get('thread-1', 'a')).toMatchObject({ status: 'submitting' });
    expect(history.get('thread-1', 'a')?.error).toBeUndefined();
    expect(controller.session.keptSet('thread-1').map((k) => k.id)).toEqual(['a', 'b']);
    expect(agent.runs.filter((run) => run.resume)).toEqual([]);
  });

  it('given interrupts sharing an id, should draw each, write a record that says why they are refused, and log an error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { agent, core, history, controller } = setUp((input) => [
      runStarted(input),
      runFinished(input, interruptOutcome(ask('dup'), ask('dup'), ask('ok'))),
    ]);
    await core.runAgent({ agent });
    expect(controller.waiting).toHaveLength(3);
    const ids = controller.waiting.map((i) => i.id);
    expect(new Set(ids).size).toBe(3);
    const refused = history.getSnapshot('thread-1').filter((r) => r.status === 'error');
    expect(refused).toHaveLength(2);
    for (const record of refused) expect(record.error).toMatch(/^Refused: .*2 interrupts with the same id "dup"/);
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/refused/));
    error.mockRestore();
  });

  it('given a legacy on_interrupt event, should draw its card when the run finishes, without waiting for CopilotKit to show it', async () => {
    const event = JSON.stringify({ id: 'int-legacy', reason: 'acme:ask', message: 'Proceed?' });
    const { agent, core, controller } = setUp((input) => [runStarted(input), customEvent('on_interrupt', event), runFinished(input)]);
    await core.runAgent({ agent });
    expect(controller.waiting.map((i) => i.id)).toEqual(['int-legacy']);
    expect(controller.pendingCount).toBe(1);
  });

  it('given a run that sends an on_interrupt event and an interrupt outcome for one request (under another id), should draw the outcome only, raised by the run that stopped', async () => {
    const event = JSON.stringify({ id: 'event-ask', reason: 'acme:ask', message: 'Proceed?' });
    const { agent, core, controller } = setUp((input) => [
      runStarted(input),
      customEvent('on_interrupt', event),
      runFinished(input, interruptOutcome({ id: 'int-ask', reason: 'acme:ask', message: 'Proceed?' })),
    ]);
    await core.runAgent({ agent });
    expect(controller.waiting.map((i) => i.id)).toEqual(['int-ask']);
    expect(controller.pendingCount).toBe(1);
    // CopilotKit shows the outcome: the same set, the same cards, not a second stop.
    const shown = controller.setOpen('standard', controller.unwrap({ interrupts: agent.pendingInterrupts }));
    expect(shown).toBe(controller.waiting);
    expect(controller.session.openSet.map((k) => [k.runId, k.id])).toEqual([[agent.runs[0].runId, 'int-ask']]);
  });

  it('given a set where the runner gave one card to other people, should count only the card this viewer may answer as waiting for them', async () => {
    const forOthers = {
      ...ask('b'),
      metadata: { 'copilotkit-interrupts:people': { viewerMayAnswer: false, waitingFor: [{ role: 'on-call' }] } },
    };
    const { agent, core, controller } = setUp((input) => [runStarted(input), runFinished(input, interruptOutcome(ask('a'), forOthers))]);
    await core.runAgent({ agent });
    expect(controller.waiting.map((card) => [card.id, card.people?.viewerMayAnswer])).toEqual([
      ['a', undefined],
      ['b', false],
    ]);
    expect(controller.pendingCount).toBe(1);
    controller.answer(controller.waiting[0]!, 'yes');
    expect(controller.pendingCount).toBe(0);
  });

  it("given two open cards, when one is answered, should keep the other card's snapshot the same object, so only the answered card redraws", async () => {
    const { agent, core, controller } = setUp((input) => [runStarted(input), runFinished(input, interruptOutcome(ask('a'), ask('b')))]);
    await core.runAgent({ agent });
    const [a] = controller.setOpen('standard', controller.unwrap({ interrupts: agent.pendingInterrupts }));
    const before = { a: controller.cardSnapshot('thread-1', 'a'), b: controller.cardSnapshot('thread-1', 'b') };
    expect(controller.cardSnapshot('thread-1', 'b')).toBe(before.b);
    controller.answer(a!, 'yes');
    expect(controller.cardSnapshot('thread-1', 'a')).not.toBe(before.a);
    expect(controller.cardSnapshot('thread-1', 'a')).toMatchObject({ status: 'submitting', result: 'yes' });
    expect(controller.cardSnapshot('thread-1', 'b')).toBe(before.b);
    expect(before.b).toMatchObject({ status: 'pending', answerFirst: false, canRetry: false, changed: false, steppedAside: false });
  });

  it("given onChatWhileOpen 'block' and a refused chat run, should ask the first open card to be answered first, until the user answers", async () => {
    const { agent, core, controller } = setUp(
      (input, n) =>
        n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(ask('a')))] : [runStarted(input), runFinished(input)],
      'block',
    );
    await core.runAgent({ agent });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    agent.addMessage({ id: 'm1', role: 'user', content: 'Something else' });
    await core.runAgent({ agent });
    expect(controller.cardSnapshot('thread-1', 'a').answerFirst).toBe(true);
    expect(agent.runs).toHaveLength(1);
    controller.answer(controller.waiting[0]!, 'ok');
    expect(controller.cardSnapshot('thread-1', 'a').answerFirst).toBe(false);
    vi.restoreAllMocks();
  });
});
