import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { act, cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import { Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInterruptHistory } from '../../src/history';
import { createInboxHandler, createInterruptRunner, type InterruptRunner } from '../../src/runner';
import { usePendingInterrupts } from '../../hooks/use-pending-interrupts';
import { serveFetchHandlers } from '../helpers/fetch-handler-server';
import { startPostgres, type PostgresCluster } from '../helpers/postgres';
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { Interrupts, makeTestCard } from './harness';

// A card answered on one device turns read-only, with that answer, on the other device showing the
// thread, without a click or a reload: the chat reads the thread again when the window regains
// focus, when the tab becomes visible, and when the inbox's poll shows the thread changed. A late
// click on a card another device answered is refused, which is an expected end: no console error.

/** Asks one question on every user message; replies to the answer it gets. */
class OneQuestionAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      const emit = (event: Record<string, unknown>) => subscriber.next(event as unknown as BaseEvent);
      emit({ type: 'RUN_STARTED', threadId, runId });
      const resume = (input as { resume?: Array<{ payload?: unknown }> }).resume;
      if (resume?.length) {
        emit({ type: 'TEXT_MESSAGE_START', messageId: `reply-${runId}`, role: 'assistant' });
        emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: `reply-${runId}`, delta: `Booked ${String(resume[0].payload)}.` });
        emit({ type: 'TEXT_MESSAGE_END', messageId: `reply-${runId}` });
        emit({ type: 'RUN_FINISHED', threadId, runId });
      } else {
        emit({
          type: 'RUN_FINISHED',
          threadId,
          runId,
          outcome: { type: 'interrupt', interrupts: [{ id: `pick-${runId}`, reason: 'acme:pick' }] },
        });
      }
      subscriber.complete();
    });
  }
}

let cluster: PostgresCluster;
let runner: InterruptRunner;
let served: ServedRuntime;
let inbox: { origin: string; close(): Promise<void> };
beforeAll(async () => {
  cluster = await startPostgres();
  runner = createInterruptRunner({ url: await cluster.createDatabase('second_device'), pollIntervalMs: 20 });
  await runner.ready();
  served = await serveRuntime(new CopilotRuntime({ agents: { default: new OneQuestionAgent() } as never, runner }));
  inbox = await serveFetchHandlers({ '/api/inbox': createInboxHandler({ runner }) });
}, 120_000);
afterAll(async () => {
  await served?.close();
  await inbox?.close();
  await runner?.close();
  await cluster?.stop();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The inbox of the page, as an app draws it. */
function Waiting({ pollIntervalMs, stream }: { pollIntervalMs: number; stream: boolean }) {
  const { threads } = usePendingInterrupts({ url: `${inbox.origin}/api/inbox`, pollIntervalMs, stream });
  return <p data-testid="waiting">{threads.length}</p>;
}

/** One device: its own provider and history, on the shared thread; its card answers `answer`. */
function Device({
  threadId,
  answer,
  pollIntervalMs,
  stream = true,
}: {
  threadId: string;
  answer: string;
  pollIntervalMs?: number;
  stream?: boolean;
}) {
  return (
    <CopilotKitProvider runtimeUrl={served.url} showDevConsole={false}>
      <Interrupts resolveDelayMs={0} history={createInterruptHistory()} renderers={{ 'acme:pick': makeTestCard('pick', answer) }} />
      {pollIntervalMs ? <Waiting pollIntervalMs={pollIntervalMs} stream={stream} /> : null}
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>
  );
}

/** The laptop raises the card; the phone opens the same conversation and sees it open too. */
async function twoDevices(threadId: string, laptopPoll?: number, laptopStreams = true) {
  const laptop = render(<Device threadId={threadId} answer="10:00" pollIntervalMs={laptopPoll} stream={laptopStreams} />);
  const textarea = await within(laptop.container).findByTestId('copilot-chat-textarea');
  fireEvent.change(textarea, { target: { value: 'Book a call' } });
  await waitFor(() => expect(within(laptop.container).getByTestId('copilot-send-button')).not.toBeDisabled(), { timeout: 10_000 });
  fireEvent.click(within(laptop.container).getByTestId('copilot-send-button'));
  const laptopCard = await within(laptop.container).findByTestId('pick', undefined, { timeout: 10_000 });
  const phone = render(<Device threadId={threadId} answer="11:30" />);
  const phoneCard = await within(phone.container).findByTestId('pick', undefined, { timeout: 10_000 });
  return { laptop, laptopCard, phone, phoneCard };
}

/** The phone answers and sees its reply; the laptop is not told. */
async function phoneAnswers(phone: ReturnType<typeof render>, phoneCard: HTMLElement) {
  fireEvent.click(within(phoneCard).getByRole('button', { name: 'Answer pick' }));
  await within(phone.container).findByText('Booked 11:30.', undefined, { timeout: 10_000 });
  await waitFor(() => expect(within(phone.container).getByTestId('pick-readonly')).toHaveAttribute('data-status', 'resolved'), {
    timeout: 10_000,
  });
}

/** The laptop shows the phone's answer, read-only, as answered on another device; the phone shows its own, as its own. */
async function expectAnsweredOnPhone(laptop: ReturnType<typeof render>, phone: ReturnType<typeof render>) {
  await waitFor(() => expect(within(laptop.container).getByTestId('pick-readonly')).toHaveAttribute('data-status', 'resolved'), {
    timeout: 10_000,
  });
  expect(within(laptop.container).getByTestId('pick-result')).toHaveTextContent('"11:30"');
  expect(within(laptop.container).getByTestId('interrupt-answered-elsewhere')).toHaveTextContent('Answered on another device.');
  expect(within(laptop.container).queryByTestId('pick')).not.toBeInTheDocument();
  // The device that answered never says another device did.
  expect(within(phone.container).getByTestId('pick-readonly')).toHaveAttribute('data-status', 'resolved');
  expect(within(phone.container).queryByTestId('interrupt-answered-elsewhere')).not.toBeInTheDocument();
}

describe('a card answered on another device', () => {
  it('given the phone answered, when the laptop window regains focus, its card turns read-only with the phone answer, and no console error', async () => {
    const errors = vi.spyOn(console, 'error');
    const { laptop, laptopCard, phone, phoneCard } = await twoDevices(`focus-${Date.now()}`);
    await phoneAnswers(phone, phoneCard);
    expect(laptopCard).toBeInTheDocument();
    expect(within(laptop.container).getByTestId('pick')).not.toHaveAttribute('data-status', 'resolved');

    await act(async () => {
      window.dispatchEvent(new Event('focus'));
    });
    await expectAnsweredOnPhone(laptop, phone);
    expect(errors).not.toHaveBeenCalled();
  });

  it('given the phone answered, when the tab becomes visible again, the laptop card turns read-only with the phone answer', async () => {
    const errors = vi.spyOn(console, 'error');
    const { laptop, phone, phoneCard } = await twoDevices(`visible-${Date.now()}`);
    await phoneAnswers(phone, phoneCard);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expectAnsweredOnPhone(laptop, phone);
    expect(errors).not.toHaveBeenCalled();
  });

  it('given the laptop shows a polled inbox, when its poll sees the thread answered, the laptop card turns read-only with the phone answer, with no focus event', async () => {
    const errors = vi.spyOn(console, 'error');
    const { laptop, phone, phoneCard } = await twoDevices(`inbox-${Date.now()}`, 200, false);
    await waitFor(() => expect(within(laptop.container).getByTestId('waiting')).toHaveTextContent('1'), { timeout: 10_000 });
    await phoneAnswers(phone, phoneCard);
    await expectAnsweredOnPhone(laptop, phone);
    expect(errors).not.toHaveBeenCalled();
  });

  it('given the laptop shows an inbox following the stream (its poll ten minutes away), the laptop card turns read-only with the phone answer as it is given, with no focus event', async () => {
    const errors = vi.spyOn(console, 'error');
    const { laptop, phone, phoneCard } = await twoDevices(`stream-${Date.now()}`, 600_000);
    await waitFor(() => expect(within(laptop.container).getByTestId('waiting')).toHaveTextContent('1'), { timeout: 10_000 });
    await phoneAnswers(phone, phoneCard);
    await expectAnsweredOnPhone(laptop, phone);
    expect(errors).not.toHaveBeenCalled();
  });

  it('given the laptop user clicks before the laptop heard of the phone answer, the click is refused and the card shows the phone answer, with no console error', async () => {
    const errors = vi.spyOn(console, 'error');
    const { laptop, laptopCard, phone, phoneCard } = await twoDevices(`late-${Date.now()}`);
    await phoneAnswers(phone, phoneCard);
    fireEvent.click(within(laptopCard).getByRole('button', { name: 'Answer pick' }));
    await expectAnsweredOnPhone(laptop, phone);
    expect(errors).not.toHaveBeenCalled();
  });
});

describe('a thread read again while its card is open here', () => {
  /** Counts the chat's connects (re-reads of the thread) and lets a test wait for them to end. */
  function watchConnects() {
    const fetch = globalThis.fetch;
    const done: Array<Promise<unknown>> = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const response = fetch(input, init);
      if (String(input instanceof Request ? input.url : input).endsWith('/connect')) done.push(response.then((r) => r.clone().text()));
      return response;
    });
    return { count: () => done.length, settled: () => Promise.all(done) };
  }

  it('given two answered cards and a third open, when the window regains focus, each card is drawn once and the open one still answers the agent', async () => {
    const errors = vi.spyOn(console, 'error');
    const device = render(<Device threadId={`reread-${Date.now()}`} answer="10:00" />);
    const chat = within(device.container);
    const ask = async (turn: number) => {
      fireEvent.change(await chat.findByTestId('copilot-chat-textarea'), { target: { value: `Book call ${turn}` } });
      await waitFor(() => expect(chat.getByTestId('copilot-send-button')).not.toBeDisabled(), { timeout: 10_000 });
      fireEvent.click(chat.getByTestId('copilot-send-button'));
      await waitFor(() => expect(chat.getAllByTestId('pick')).toHaveLength(1), { timeout: 10_000 });
    };
    const answer = async (replies: number) => {
      fireEvent.click(within(chat.getByTestId('pick')).getByRole('button', { name: 'Answer pick' }));
      await waitFor(() => expect(chat.getAllByText('Booked 10:00.')).toHaveLength(replies), { timeout: 10_000 });
      await waitFor(() => expect(chat.getByTestId('copilot-chat')).toHaveAttribute('data-copilot-running', 'false'), { timeout: 10_000 });
    };
    await ask(1);
    await answer(1);
    await ask(2);
    await answer(2);
    await ask(3);

    const connects = watchConnects();
    await act(async () => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(connects.count()).toBe(1), { timeout: 10_000 });
    await act(() => connects.settled());

    // The transcript is the thread's, once: each reply once, with its text.
    expect(chat.getAllByText('Booked 10:00.')).toHaveLength(2);
    expect(chat.getAllByTestId('pick-readonly')).toHaveLength(2);
    expect(chat.getAllByTestId('pick')).toHaveLength(1);
    const ids = [...device.container.querySelectorAll('[data-interrupt-id]')].map((node) => node.getAttribute('data-interrupt-id'));
    expect(new Set(ids).size).toBe(ids.length);
    expect(chat.queryByTestId('interrupt-answered-elsewhere')).not.toBeInTheDocument();
    await answer(3);
    expect(chat.getAllByTestId('pick-readonly')).toHaveLength(3);
    expect(chat.queryByTestId('pick')).not.toBeInTheDocument();
    expect(errors).not.toHaveBeenCalled();
  });
});
