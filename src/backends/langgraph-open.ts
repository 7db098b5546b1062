/**
 * The check every backend carried by LangGraph makes before a resume: which interrupts the thread
 * holds open, and whether an approval still shows what its card showed. Imports no backend.
 */
import { isRecord } from '../wire/guards';
import { nonEmptyText } from '../wire/shapes';
import { ResumeRefusal } from '../protocol/constants';
import { approvalFingerprint } from './fingerprint';
import { errorMessage } from '../error-message';
import { quoteId } from './answers';
import { NO_LANGGRAPH_INTERRUPT, fromLangGraphValue } from './langgraph-wire';
import { langGraphInterruptId } from '../wire/ids';
import type { Answer, Json, Refusal, ResumeContext } from './types';

type ThreadState = { tasks?: { interrupts?: { id?: unknown; value?: unknown }[] }[] };
type LangGraphClient = { threads: { getState(threadId: string): Promise<ThreadState> } };
type OpenInterrupts = { interrupts: { id?: unknown; value?: unknown }[] } | { unchecked: true };

/** The refusal of an answer to a request that changed after its card showed it. */
export function changedRefusal(sent: string): Refusal {
  return {
    code: ResumeRefusal.Changed,
    message: `The answer to interrupt ${quoteId(sent)} was refused (${ResumeRefusal.Changed}): the request changed after it was shown (its tool or arguments differ). This request changed. Review it again.`,
  };
}

/**
 * The LangGraph client of the agent this middleware runs (CopilotKit's LangGraphAgent, with the
 * middleware next to it); undefined, said once, when none is in reach (another middleware comes
 * between: AG-UI hands a link of the chain, not the agent).
 */
function clientOf(context: ResumeContext): LangGraphClient | undefined {
  const client = (context.agent as unknown as { client?: Partial<LangGraphClient> }).client;
  if (typeof client?.threads?.getState === 'function') return client as LangGraphClient;
  context.reportOnce(
    'Answers to LangGraph interrupts go on unchecked: another middleware runs between normalizeInterrupts() and the agent ' +
      '(CopilotRuntime adds A2UI, MCP apps or memory middlewares to each request), so it cannot read which interrupts ' +
      'are open, and a node that asks twice may take an answer sent again. Register the agent with ' +
      'withNormalizedInterrupts(agent), which keeps it next to the agent.',
    context.input,
  );
  return undefined;
}

/** The interrupts the thread holds open, read once per resume; `unchecked` when the state cannot be read. */
function openInterrupts(client: LangGraphClient, context: ResumeContext): Promise<OpenInterrupts> {
  return context.once('langgraph:open-interrupts', async (): Promise<OpenInterrupts> => {
    try {
      const state = await client.threads.getState(context.input.threadId);
      return { interrupts: (state?.tasks ?? []).flatMap((task) => task?.interrupts ?? []) };
    } catch (error) {
      context.report(
        `Could not read which LangGraph interrupts are open; the answers go on unchecked (${errorMessage(error)}).`,
        context.input,
      );
      return { unchecked: true };
    }
  });
}

/** The cards the thread's open LangGraph interrupts are shown as, signed, as a stop would give them (read by every backend, in order). */
function openCards(interrupts: { id?: unknown; value?: unknown }[], context: ResumeContext): unknown[] {
  return interrupts.flatMap((interrupt) => {
    const id = nonEmptyText(interrupt?.id);
    // As @ag-ui/langgraph sends it in an interrupt outcome: LangGraph's own id, the value under metadata.langgraph.raw.
    return id ? context.read({ ...fromLangGraphValue(id, interrupt.value, {}), id }) : [];
  });
}

/**
 * The answers with those whose interrupt the thread no longer holds addressed to no interrupt, or
 * the refusal of one given to a request whose tool or arguments are no longer what its card
 * showed. LangGraph JS hands an answer keyed by a node's FIRST interrupt id to that node's next
 * `interrupt()` when the map has no answer for it, so an answer sent again (a Retry after a lost
 * stream, a second tab) would answer a question nobody saw. Not removed: a run without any answer
 * would start the graph over; addressed to an id no interrupt has, the resume stays a map that
 * reaches no node (and the run shows what is still open). Unchanged when the client speaks the
 * legacy way (`forwardedProps.command`) or the open interrupts cannot be read.
 *
 * `langGraphIdOf` reads LangGraph's id from an answer's id; `cardFor` is the card the pending
 * value is shown as for that answer (what its fingerprint is taken of).
 */
export function checkOpenLangGraphAnswers(
  answers: readonly Answer[],
  context: ResumeContext,
  langGraphIdOf: (answer: Answer) => string | undefined,
  cardFor: (answer: Answer, value: unknown, langGraphId: string) => Json | undefined,
): Promise<Checked> | undefined {
  const { input } = context;
  if (!input.threadId || (isRecord(input.forwardedProps) && isRecord(input.forwardedProps.command))) return undefined;
  if (!answers.some((answer) => langGraphIdOf(answer) !== undefined)) return undefined;
  const client = clientOf(context);
  return client && openInterrupts(client, context).then((open) => checkAgainst(open, answers, context, langGraphIdOf, cardFor));
}

type Checked = { refused: Refusal } | { answers: Answer[] } | undefined;

function checkAgainst(
  open: OpenInterrupts,
  answers: readonly Answer[],
  context: ResumeContext,
  langGraphIdOf: (answer: Answer) => string | undefined,
  cardFor: (answer: Answer, value: unknown, langGraphId: string) => Json | undefined,
): Checked {
  if ('unchecked' in open) return undefined;
  for (const answer of answers) {
    const id = langGraphIdOf(answer);
    const pending = id === undefined ? undefined : open.interrupts.find((i) => i?.id === id);
    const shown = context.shown(answer.interruptId);
    if (!pending || id === undefined || !shown) continue;
    if (shown.fingerprint !== approvalFingerprint(cardFor(answer, pending.value, id) ?? {})) {
      // The requests as the thread holds them now, signed like a stop's: the card can show them
      // for a fresh review, and the answer to them is checked again like any other.
      return { refused: { ...changedRefusal(shown.sent), interrupts: openCards(open.interrupts, context) } };
    }
  }
  const ids = new Set(open.interrupts.map((i) => i?.id));
  const stale = answers.filter((answer) => {
    const id = langGraphIdOf(answer);
    return id !== undefined && !ids.has(id);
  });
  if (stale.length === 0) return undefined;
  context.report(
    `${stale.length} answer${stale.length === 1 ? ' is' : 's are'} for a LangGraph interrupt the thread no longer holds (sent again?); dropped.`,
    stale,
  );
  const nobody = langGraphInterruptId(NO_LANGGRAPH_INTERRUPT);
  return { answers: answers.map((answer) => (stale.includes(answer) ? { ...answer, interruptId: nobody } : answer)) };
}
