/**
 * The benchmark page. One bundle, so both sides of every comparison run the same React,
 * CopilotKit and card code; the URL picks the side:
 *
 * - `?scenario=interrupt&variant=ours`: `useInterruptRenderers({ resolveDelayMs: 0 })` (transcript echo on).
 * - `?scenario=interrupt&variant=plain`: a hand-written plain CopilotKit `useInterrupt` render of the
 *   same TimePickerCard, the usual hand-written pattern: unwrap by hand, card state local, and
 *   `setTimeout(() => resolve(result), 500)`.
 * - `?scenario=transcript&variant=echoes|plain`: a 30-message transcript with 200 resolved echoes
 *   (or none), the hook mounted in both, to time appending and streaming.
 * - `?scenario=long&variant=echoes|plain`: a 300-message conversation (virtualized by CopilotKit)
 *   with 1,000 resolved echoes (or none), to time scrolling, appending and answering.
 * - `?scenario=nodes`: one answered card of every kind in the transcript, to count DOM nodes per echo.
 * - `?scenario=batch`: the agent raises a set of direct-mode approvals (20, or 1 for the baseline);
 *   the page presses "Approve all (20)" (or the one card's Approve) and times it to the resume run.
 *
 * The node driver (bench/browser.ts) talks to `window.__bench`.
 */
import { Profiler, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CopilotChat, CopilotKitProvider, useAgent, useCopilotKit, useInterrupt } from '@copilotkit/react-core/v2';
import type { Message, RunAgentInput } from '@ag-ui/client';
import { TimePickerCard, type TimePickerResult } from '../../components/time-picker-card/time-picker-card';
import { useInterruptRenderers } from '../../components/interrupt-renderers';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import { createInterruptHistory, type InterruptHistory } from '../../src/history';
import { unwrapInterrupt, type UnwrappedInterrupt } from '../../src/unwrap';
import { approvalInterrupt, mastraScheduleInterrupt, questionInterrupt, questions, slots, ticket } from '../../test/fixtures/interrupts';
import '../../components/styles.css';
import {
  BenchAgent,
  customEvent,
  nextTask,
  runFinished,
  runStarted,
  textDelta,
  textEnd,
  textMessage,
  textStart,
  type Step,
} from './bench-agent';

const params = new URLSearchParams(location.search);
const scenario = params.get('scenario') ?? 'interrupt';
const variant = params.get('variant') ?? 'ours';
const THREAD_ID = 'bench-thread';

const count = (selector: string) => document.querySelectorAll(selector).length;
const INTERACTIVE = '[data-testid="time-picker-card"]';
const PICKED = '[data-testid="time-picker-picked"]';
const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

// ---------------------------------------------------------------- the interrupt of run n

/** A `schedule_meeting` suspend exactly as @ag-ui/mastra sends it, with ids unique to run n. */
function scheduleInterrupt(input: RunAgentInput, n: number) {
  const toolCallId = `call_schedule_${n}`;
  const mastra = { ...mastraScheduleInterrupt.metadata.mastra, runId: input.runId };
  return {
    standard: { ...mastraScheduleInterrupt, id: `${input.runId}::${toolCallId}`, toolCallId, metadata: { mastra } },
    legacy: JSON.stringify({ ...mastra, toolCallId }),
  };
}

// ---------------------------------------------------------------- figures 2 and 3

interface ReadOnlyWatch {
  /** Read-only cards in the DOM when the click happened (earlier echoes). */
  before: number;
  /** The read-only card was in the DOM at a frame (rAF), so that frame painted it. */
  painted: boolean;
  /** At some committed DOM state neither the interactive nor the read-only card was there. */
  vanished: boolean;
}

const interruptLog = {
  finishedAt: [] as number[],
  cardAt: [] as number[],
  clickAt: [] as number[],
  answered: 0,
  readOnly: [] as ReadOnlyWatch[],
};
let watch: ReadOnlyWatch | null = null;
let cardShown = false;

function checkDom() {
  const now = performance.now();
  const interactive = count(INTERACTIVE);
  if (interactive > 0 && !cardShown) {
    cardShown = true;
    interruptLog.cardAt.push(now);
  } else if (interactive === 0) {
    cardShown = false;
  }
  if (watch && interactive === 0 && count(PICKED) <= watch.before) watch.vanished = true;
}

async function watchFrames(current: ReadOnlyWatch) {
  while (watch === current) {
    await frame();
    if (watch === current && count(PICKED) > current.before) current.painted = true;
  }
}

function startInterruptScenario(agent: BenchAgent) {
  let interruptRuns = 0;
  agent.plan = (input) => {
    if (input.resume?.length) {
      return [
        runStarted(input),
        nextTask(),
        ...textMessage(`reply-${input.runId}`, 'Scheduled "Intro with sales".'),
        runFinished(input),
        () => {
          interruptLog.answered++;
        },
      ];
    }
    const { standard, legacy } = scheduleInterrupt(input, interruptRuns++);
    const steps: Step[] = [
      runStarted(input),
      customEvent('on_interrupt', legacy),
      // Let the page settle so the timed part is the interrupt alone.
      nextTask(30),
      () => {
        interruptLog.finishedAt.push(performance.now());
      },
      runFinished(input, { type: 'interrupt', interrupts: [standard] }),
    ];
    return steps;
  };
  new MutationObserver(checkDom).observe(document.body, { childList: true, subtree: true, attributes: true });
  window.addEventListener(
    'click',
    (event) => {
      if (!(event.target instanceof Element) || !event.target.closest('[data-testid="time-picker-slot"]')) return;
      interruptLog.clickAt.push(performance.now());
      watch = { before: count(PICKED), painted: false, vanished: false };
      void watchFrames(watch);
    },
    true,
  );
}

/** The hand-written card state machine around the same TimePickerCard: local state, no library hook. */
function PlainTimePicker({ id, payload, onSubmit }: { id: string; payload: unknown; onSubmit: (result: TimePickerResult) => void }) {
  const [result, setResult] = useState<TimePickerResult | undefined>(undefined);
  const interrupt: UnwrappedInterrupt = {
    id,
    reason: 'mastra:tool_suspend',
    toolName: 'schedule_meeting',
    metadata: {},
    payload,
    source: 'mastra',
    raw: payload,
  };
  const props: InterruptRendererProps<TimePickerResult> = {
    interrupt,
    status: result ? 'resolved' : 'pending',
    result,
    readOnly: !!result,
    locale: 'en',
    resolve: (picked) => {
      if (result) return;
      setResult(picked);
      onSubmit(picked);
    },
    cancel: () => undefined,
    retry: () => undefined,
  };
  return <TimePickerCard {...props} />;
}

/** The usual hand-written glue, against the CopilotKit 1.74 shapes (standard interrupt first). */
function PlainInterrupts() {
  useInterrupt({
    renderInChat: true,
    render: ({ event, interrupt, resolve }) => {
      const raw: unknown = interrupt ?? event?.value ?? {};
      const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
        id?: string;
        suspendPayload?: unknown;
        metadata?: { mastra?: { suspendPayload?: unknown } };
      };
      const payload = parsed.metadata?.mastra?.suspendPayload ?? parsed.suspendPayload ?? parsed;
      const id = parsed.id ?? 'legacy';
      return (
        <PlainTimePicker
          key={id}
          id={id}
          payload={payload}
          // Deferred resolve: let React commit the "Booked" badge before CopilotKit clears the element.
          onSubmit={(result) => setTimeout(() => void resolve(result, id), 500)}
        />
      );
    },
  } as Parameters<typeof useInterrupt>[0]);
  return null;
}

function OurInterrupts() {
  useInterruptRenderers({ resolveDelayMs: 0 });
  return null;
}

// ---------------------------------------------------------------- figure 4

/** Figure 4 (`transcript`): 200 echoes over 30 messages; figure 4b (`long`): 1,000 over 300. */
const LONG = scenario === 'long';
const ECHOES = LONG ? 1000 : 200;
/**
 * 15 user/assistant pairs: with the timed turns' answers the transcript stays under CopilotKit's
 * virtualization threshold (more than 50 messages), so every message and all 200 echoes (13 or 14
 * after each assistant message) stay mounted: the worst case for re-renders. Crossing the threshold
 * remounts the whole list, so the driver checks it never does. A longer transcript would be
 * virtualized and mount only the visible rows.
 */
const PAIRS = LONG ? 150 : 15;
export const VIRTUALIZE_THRESHOLD = 50;
let echoRenders = 0;
/** Every read-only card render since the page loaded: proves the Profiler counts at all. */
let echoRendersTotal = 0;

/** Ids of the 200 pre-filled echoes; cards answered during the run are not counted. */
const isPrefilled = (id: string) => id.startsWith('echo-');

/** The built-in card, wrapped in a Profiler so every render of a pre-filled resolved card is counted. */
function ProfiledTimePicker(props: InterruptRendererProps<TimePickerResult>) {
  return (
    <Profiler
      id="card"
      onRender={() => {
        if (!props.readOnly || !isPrefilled(props.interrupt.id)) return;
        echoRenders++;
        echoRendersTotal++;
      }}
    >
      <TimePickerCard {...props} />
    </Profiler>
  );
}
const profiledRenderers = { 'tool:schedule_meeting': ProfiledTimePicker };

function transcriptMessages(): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < PAIRS; i++) {
    messages.push({ id: `u${i}`, role: 'user', content: `Book call number ${i} with sales, please.` });
    messages.push({ id: `a${i}`, role: 'assistant', content: `Here are some times for call ${i}.` });
  }
  return messages;
}

function echoHistory(withEchoes: boolean): InterruptHistory {
  // Room for the answers the timed turns add, so no pre-filled echo is dropped mid-run.
  const history = createInterruptHistory({ maxPerThread: ECHOES + 50 });
  if (!withEchoes) return history;
  for (let i = 0; i < ECHOES; i++) {
    const id = `echo-${i}::call_${i}`;
    const interrupt = unwrapInterrupt({ ...mastraScheduleInterrupt, id, toolCallId: `call_${i}` });
    const slot = slots[i % slots.length];
    history.record({
      threadId: THREAD_ID,
      id,
      reason: interrupt.reason,
      interrupt,
      status: 'resolved',
      result: { chosen_time: slot.iso, chosen_label: slot.label },
      anchor: `a${i % PAIRS}`,
      agentId: 'default',
      time: i,
    });
  }
  return history;
}

const transcriptHistory = scenario === 'transcript' || LONG ? echoHistory(variant === 'echoes') : undefined;

function TranscriptInterrupts() {
  useInterruptRenderers({ resolveDelayMs: 0, history: transcriptHistory, renderers: profiledRenderers });
  return null;
}

/** Resolves when `marker` shows up in the DOM (text added or edited anywhere under body). */
function whenText(marker: string): Promise<number> {
  return new Promise((resolve) => {
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        const nodes = record.type === 'characterData' ? [record.target] : Array.from(record.addedNodes);
        if (nodes.some((node) => node.textContent?.includes(marker))) {
          observer.disconnect();
          resolve(performance.now());
          return;
        }
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

// ---------------------------------------------------------------- figure 4c: DOM nodes per echo

/** A question card with many questions and answers: its echo must cost what a small one costs. */
const manyQuestions = Array.from({ length: 40 }, (_, i) => ({ ...questions[1], question: `Question ${i}: which languages?` }));

/** One answered interrupt of every kind the built-in cards draw, as the history stores it. */
const NODE_KINDS: Array<{ kind: string; raw: Record<string, unknown>; result: unknown }> = [
  {
    kind: 'time picker, booked',
    raw: { ...mastraScheduleInterrupt, id: 'n-time', toolCallId: 'n-time' },
    result: { chosen_time: slots[0].iso, chosen_label: slots[0].label },
  },
  {
    kind: 'question, 2 answered',
    raw: { ...questionInterrupt, id: 'n-question' },
    result: { answers: questions.map((q) => ({ question: q.question, answer: [q.options[0]] })) },
  },
  {
    kind: 'question, 40 answered x 5',
    raw: { ...questionInterrupt, id: 'n-questions', metadata: { questions: manyQuestions } },
    result: {
      answers: manyQuestions.map((q) => ({
        question: q.question,
        answer: Array.from({ length: 5 }, (_, j) => ({ label: `Language ${j}`, description: `Language ${j}` })),
      })),
    },
  },
  {
    kind: 'approval, direct, edited',
    raw: {
      id: 'n-direct',
      reason: 'aidev:tool_approval',
      message: 'The agent wants to deploy a service.',
      metadata: { toolName: 'deploy_service', arguments: { service: 'api', replicas: 2, regions: ['eu', 'us', 'ap'] } },
    },
    result: { approved: true, reason: 'After the freeze', editedArgs: { service: 'api', replicas: 4, regions: ['eu'] } },
  },
  {
    kind: 'approval, ticket',
    raw: { ...approvalInterrupt, id: 'n-ticket' },
    result: { metadata: { ticket: { ...ticket, status: 'approved' } } },
  },
  {
    kind: 'fallback, sent',
    raw: { id: 'n-fallback', reason: 'acme:survey', message: 'Rate this answer.', metadata: { scale: [1, 2, 3, 4, 5], anonymous: true } },
    result: {},
  },
];

const nodesHistory = scenario === 'nodes' ? createInterruptHistory() : undefined;
NODE_KINDS.forEach(({ raw, result }, i) => {
  const interrupt = unwrapInterrupt(raw);
  nodesHistory?.record({
    threadId: THREAD_ID,
    id: interrupt.id,
    reason: interrupt.reason,
    interrupt,
    status: 'resolved',
    result,
    anchor: 'a0',
    agentId: 'default',
    time: i,
  });
});

function NodesInterrupts() {
  useInterruptRenderers({ resolveDelayMs: 0, history: nodesHistory });
  return null;
}

/** Elements and text nodes in one echo, its `.cki-interrupt` wrapper included. */
function nodesIn(root: Element): number {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  let nodes = 1;
  while (walker.nextNode()) nodes++;
  return nodes;
}

/** Per kind: DOM nodes of the echo as the transcript shows it, and with its details opened. */
async function countNodes(): Promise<Array<{ kind: string; closed: number; opened: number }>> {
  const counts = [];
  for (const { kind, raw } of NODE_KINDS) {
    const echo = document.querySelector(`[data-interrupt-id="${String(raw.id)}"]`);
    if (!echo) throw new Error(`no echo of ${kind} in the transcript`);
    const closed = nodesIn(echo);
    const toggle = echo.querySelector<HTMLElement>('[aria-expanded]');
    toggle?.click();
    await frame();
    await frame();
    counts.push({ kind, closed, opened: nodesIn(echo) });
    toggle?.click();
  }
  return counts;
}

// ---------------------------------------------------------------- figure 9: Approve all

/** A direct-mode approval (`aidev:tool_approval`), the kind batch review answers; ids unique per turn. */
const batchApproval = (k: number, i: number) => ({
  id: `approve-${k}-${i}`,
  reason: 'aidev:tool_approval',
  toolCallId: `call-${k}-${i}`,
  message: `Run step ${i + 1} of the plan?`,
  metadata: { toolName: 'run_step', arguments: { step: i + 1, target: `service-${i % 4}`, dryRun: false } },
});

const APPROVE_ALL = '[data-testid="batch-review"] button.cki-button--primary';
const APPROVE_ONE = '[data-testid="approval-card"] [data-testid="approval-approve"]';

/**
 * Figure 9: the agent stops with `size` approvals in one set; once every card is drawn, the page
 * presses "Approve all (size)" (for a set of one, the card's own Approve). Times the click (taken by
 * a capture listener on `window`, before React handles it) to the resume run's input reaching the
 * agent's `run()`, and returns what that resume carried.
 */
async function approveAll(k: number, size: number) {
  agent.plan = (input) =>
    input.resume?.length
      ? [runStarted(input), ...textMessage(`approved-${k}`, `Ran ${input.resume.length} steps.`), runFinished(input)]
      : [
          runStarted(input),
          runFinished(input, { type: 'interrupt', interrupts: Array.from({ length: size }, (_, i) => batchApproval(k, i)) }),
        ];
  const runsBefore = agent.stamps.runs.length;
  driver!.agent.addMessage({ id: `plan-${k}`, role: 'user', content: 'Run the plan.' });
  const run = driver!.run();
  const selector = size > 1 ? APPROVE_ALL : APPROVE_ONE;
  await untilFrame(() => count('[data-testid="approval-card"] [data-testid="approval-approve"]') === size && count(selector) > 0);
  await frame();
  let clickAt = 0;
  const stamp = () => {
    clickAt = performance.now();
  };
  window.addEventListener('click', stamp, { capture: true, once: true });
  document.querySelector<HTMLElement>(selector)!.click();
  await untilFrame(() => agent.stamps.runs.length > runsBefore + 1);
  await run;
  const resumed = agent.stamps.runs[runsBefore + 1]!;
  const resume = resumed.input.resume ?? [];
  const decisions = resume.filter(
    (entry) => entry.status === 'resolved' && (entry.payload as { approved?: boolean } | undefined)?.approved === true,
  ).length;
  await untilFrame(() => document.body.innerText.includes(`Ran ${resume.length} steps.`));
  return { ms: resumed.at - clickAt, decisions, resumes: agent.stamps.runs.length - runsBefore - 1 };
}

// ---------------------------------------------------------------- page + driver API

const agent = new BenchAgent(THREAD_ID);
if (scenario === 'interrupt') startInterruptScenario(agent);

let driver: { run: () => Promise<unknown>; agent: BenchAgent } | null = null;

function Driver() {
  const { copilotkit } = useCopilotKit();
  const { agent: registered } = useAgent({ agentId: 'default', updates: [] });
  useEffect(() => {
    driver = {
      run: () => copilotkit.runAgent({ agent: registered as never }),
      agent: registered as unknown as BenchAgent,
    };
  }, [copilotkit, registered]);
  return null;
}

let runCount = 0;
const bench = {
  scenario,
  variant,
  ready: () => driver !== null && document.querySelector('[data-testid="copilot-message-list"]') !== null,
  interruptLog,
  resumes: () => agent.stamps.runs.filter((run) => run.input.resume?.length).map((run) => ({ at: run.at, resume: run.input.resume })),
  /** Figures 2/3: a user turn that the agent answers with a schedule_meeting interrupt. */
  ask() {
    driver!.agent.addMessage({ id: `ask-${runCount++}`, role: 'user', content: 'Book an intro call with the sales team.' });
    void driver!.run();
  },
  /** Figure 3: stop watching the read-only card and keep the verdict. */
  endWatch(): ReadOnlyWatch | null {
    const done = watch;
    watch = null;
    if (done) interruptLog.readOnly.push(done);
    return done;
  },
  /**
   * Figure 4: fill the transcript (30 messages). CopilotChat resets the agent's messages when it
   * binds the thread, so this runs once the page is up.
   */
  loadTranscript() {
    driver!.agent.setMessages(transcriptMessages());
  },
  /** Figure 4: resolved cards drawn in the transcript right now. */
  echoesInDom: () => count(PICKED),
  /** Figure 4: how many messages and echoes the scenario fills in. */
  echoesPlanned: ECHOES,
  lastMessageText: `Here are some times for call ${PAIRS - 1}.`,
  /** Figure 4c: one answered card of every kind; DOM nodes per echo, closed and opened. */
  nodeKinds: NODE_KINDS.length,
  echoesOfEveryKind: () => count('.cki-interrupt'),
  countNodes,
  /** Figure 9: a set of `size` approvals, answered with one press; the click -> resume time. */
  approveAll,
  /**
   * Figure 4b: the user scrolls up through the conversation, `steps` jumps of `px` pixels, one per
   * frame (CopilotKit's virtualizer mounts the rows, and their echoes, that come into view).
   */
  async scroll(steps = 24, px = 600) {
    const scroller = scrollElement();
    await frame();
    echoRenders = 0;
    const remounts = watchRemounts();
    const start = performance.now();
    for (let i = 0; i < steps; i++) {
      scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: -px, bubbles: true }));
      scroller.scrollTop = Math.max(0, scroller.scrollTop - px);
      await frame();
    }
    await frame();
    await frame();
    return { ms: performance.now() - start, renders: echoRenders, remounts: remounts() };
  },
  /** Figure 4b: back to the newest message (not timed), so the next turn starts at the bottom. */
  async toBottom() {
    const scroller = scrollElement();
    const settle = async () => {
      await frame();
      await frame();
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const atBottom = () => scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
    // Each jump mounts the rows it lands on, and their measured heights move the bottom again (with
    // 1,000 echoes, CopilotKit's estimate for a row is far off): jump until the bottom stays put.
    for (let i = 0, still = 0; i < 100 && still < 3; i++) {
      still = atBottom() ? still + 1 : 0;
      scroller.scrollTop = scroller.scrollHeight;
      await settle();
    }
    // The last move is a short scroll down with nothing resizing, as a user's would end, so the chat
    // sticks to the bottom again (use-stick-to-bottom ignores a scroll that comes with a resize).
    scroller.scrollTop -= 1;
    await settle();
    scroller.scrollTop = scroller.scrollHeight;
    await settle();
  },
  echoRendersTotal: () => echoRendersTotal,
  /** Figure 4: messages in the transcript; above 50 CopilotKit virtualizes (and remounts) the list. */
  messageCount: () => driver!.agent.messages.length,
  virtualizeThreshold: VIRTUALIZE_THRESHOLD,
  /** Figure 4: the agent appends one short answer; time until it is in the DOM, and card renders. */
  async append(k: number) {
    const marker = `zqa${k}q`;
    agent.plan = (input) => [runStarted(input), ...textMessage(`append-${k}`, `Noted, reply ${marker}.`), runFinished(input)];
    return timeTurn(marker);
  },
  /**
   * Figure 4: the agent stops for a schedule_meeting interrupt, the user picks a slot, the agent
   * resumes and answers. Times the whole exchange to the answer's text in the DOM.
   */
  async answer(k: number) {
    const marker = `zqr${k}q`;
    agent.plan = (input) =>
      input.resume?.length
        ? [runStarted(input), ...textMessage(`answer-${k}`, `Scheduled, ${marker}.`), runFinished(input)]
        : [runStarted(input), runFinished(input, { type: 'interrupt', interrupts: [scheduleInterrupt(input, 1000 + k).standard] })];
    await frame();
    echoRenders = 0;
    const seen = whenText(marker);
    const remounts = watchRemounts();
    const start = performance.now();
    void driver!.run();
    await untilFrame(() => count(INTERACTIVE) > 0);
    document.querySelector<HTMLElement>(`${INTERACTIVE} [data-testid="time-picker-slot"]`)!.click();
    const end = await seen;
    await frame();
    await frame();
    return { ms: end - start, renders: echoRenders, remounts: remounts() };
  },
  /** Figure 4: the agent streams a long answer in `chunks` deltas, one per task. */
  async stream(k: number, chunks = 80) {
    const marker = `zqs${k}q`;
    agent.plan = (input) => {
      const id = `stream-${k}`;
      const steps: Step[] = [runStarted(input), textStart(id)];
      for (let j = 0; j < chunks; j++) steps.push(textDelta(id, `word${j} lorem ipsum dolor `), nextTask());
      steps.push(textDelta(id, ` ${marker}`), textEnd(id), runFinished(input));
      return steps;
    };
    return timeTurn(marker);
  },
};

/** The chat's scrolling element (the one CopilotKit's virtualizer listens to). */
function scrollElement(): HTMLElement {
  for (let at = document.querySelector('[data-testid="copilot-message-list"]'); at; at = at.parentElement) {
    if (at instanceof HTMLElement && at.scrollHeight > at.clientHeight && /auto|scroll/.test(getComputedStyle(at).overflowY)) return at;
  }
  throw new Error('no scrolling element around the message list');
}

/**
 * Figure 4b: counts the rows CopilotKit's virtualizer unmounts and mounts again (the same
 * `data-index`) until the returned function is called, which stops and returns the count.
 */
function watchRemounts(): () => number {
  const removed = new Set<string>();
  let remounts = 0;
  const rows = (nodes: NodeList) =>
    Array.from(nodes).flatMap((node) => (node instanceof HTMLElement && node.dataset.index ? [node.dataset.index] : []));
  const count = (records: MutationRecord[]) => {
    for (const record of records) {
      for (const index of rows(record.removedNodes)) removed.add(index);
      for (const index of rows(record.addedNodes)) if (removed.has(index)) remounts++;
    }
  };
  const observer = new MutationObserver(count);
  observer.observe(document.body, { childList: true, subtree: true });
  return () => {
    count(observer.takeRecords());
    observer.disconnect();
    return remounts;
  };
}

/** Resolves at the first frame where `check()` holds. */
async function untilFrame(check: () => boolean): Promise<void> {
  while (!check()) await frame();
}

async function timeTurn(marker: string): Promise<{ ms: number; renders: number; remounts: number }> {
  await frame();
  echoRenders = 0;
  const seen = whenText(marker);
  const remounts = watchRemounts();
  const start = performance.now();
  const run = driver!.run();
  const end = await seen;
  await run;
  await frame();
  await frame();
  return { ms: end - start, renders: echoRenders, remounts: remounts() };
}

declare global {
  interface Window {
    __bench: typeof bench;
  }
}
window.__bench = bench;

function App() {
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <Driver />
      {scenario === 'nodes' ? (
        <NodesInterrupts />
      ) : scenario === 'transcript' || LONG ? (
        <TranscriptInterrupts />
      ) : variant === 'plain' ? (
        <PlainInterrupts />
      ) : (
        <OurInterrupts />
      )}
      <div style={{ height: '100vh', maxWidth: 896, margin: '0 auto' }}>
        <CopilotChat threadId={THREAD_ID} />
      </div>
    </CopilotKitProvider>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
