/**
 * What every backend carried by LangGraph shares (@ag-ui/langgraph's interrupts, LangGraph's
 * resume map): the LangGraph backend and the LangChain `humanInTheLoopMiddleware` backend read
 * their values through it. Imports no backend. The reason and the `langgraph::` ids, which the
 * browser reads too, are in src/wire.
 */
import { isRecord } from '../wire/guards';
import { LANGGRAPH_INTERRUPT_REASON, langGraphInterruptId } from '../wire/ids';
import { liftInterrupt, nonEmptyText, objectOrJson } from '../wire/shapes';
import type { CommandAnswer, Json, RaiseEvent, Report } from './types';

/** What @ag-ui/langgraph makes of a cancelled resume entry; the graph receives it from `interrupt()`. */
export const LANGGRAPH_CANCELLED_KEY = '__agui_cancelled__';
/** 32 hex digits, so LangGraph reads a map keyed by it as a resume map; no interrupt has this id. */
export const NO_LANGGRAPH_INTERRUPT = '0'.repeat(32);

/**
 * The standard interrupt for a LangGraph interrupt `{id, value}` — the shape @ag-ui/langgraph
 * sends with `emitInterruptOutcome: true` — with our id, before any lift.
 */
export function fromLangGraphValue(langGraphId: string, value: unknown, extra: Json = {}): Json {
  const data = isRecord(value) ? value : undefined;
  const message = typeof value === 'string' ? value : nonEmptyText(data?.message);
  const toolCallId = nonEmptyText(data?.toolCallId) ?? nonEmptyText(data?.tool_call_id);
  const responseSchema = objectOrJson(data?.responseSchema ?? data?.response_schema);
  const expiresAt = nonEmptyText(data?.expiresAt) ?? nonEmptyText(data?.expires_at);
  return {
    id: langGraphInterruptId(langGraphId),
    reason: nonEmptyText(data?.reason) ?? LANGGRAPH_INTERRUPT_REASON,
    ...(message ? { message } : {}),
    ...(toolCallId ? { toolCallId } : {}),
    ...(responseSchema ? { responseSchema } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    metadata: { langgraph: { ...extra, raw: value } },
  };
}

/** One LangGraph interrupt as a raise: LangGraph's id, the graph's `interrupt(value)`, what else the bridge sent, and its plain standard interrupt (not lifted). */
export interface LangGraphRaise {
  langGraphId: string;
  value: unknown;
  extra: Json;
  plain(): Json;
}

/** The LangGraph interrupt of a standard interrupt @ag-ui/langgraph sent (`metadata.langgraph`), else undefined. */
export function langGraphRaiseOf(interrupt: Json): LangGraphRaise | undefined {
  const id = nonEmptyText(interrupt.id);
  const metadata = interrupt.metadata;
  if (!id || !isRecord(metadata) || !isRecord(metadata.langgraph)) return undefined;
  const { raw, ...extra } = metadata.langgraph;
  return { langGraphId: id, value: raw, extra, plain: () => ({ ...interrupt, id: langGraphInterruptId(id) }) };
}

/** The LangGraph interrupt of a legacy `on_interrupt` event (@ag-ui/langgraph sends it as `rawEvent`: `{id, value, ns?, resumable?, when?}`). */
export function langGraphRaiseOfEvent({ rawEvent }: RaiseEvent): LangGraphRaise | undefined {
  if (!isRecord(rawEvent) || !nonEmptyText(rawEvent.id) || !('value' in rawEvent)) return undefined;
  const { ns, resumable, when } = rawEvent;
  const extra = { ns, resumable, when };
  const langGraphId = rawEvent.id as string;
  return { langGraphId, value: rawEvent.value, extra, plain: () => fromLangGraphValue(langGraphId, rawEvent.value, extra) };
}

/** A LangGraph raise whose value could not be read: its plain interrupt, with the problem in `metadata.langgraph.problem` for the card and in the console. */
export function shownAsPlain(raise: LangGraphRaise, problem: string, report: Report): Json[] {
  report(`${problem} It is shown as a plain interrupt.`, raise.value);
  const fallback = raise.plain();
  const metadata = isRecord(fallback.metadata) ? fallback.metadata : {};
  const langgraph = isRecord(metadata.langgraph) ? metadata.langgraph : {};
  return [{ ...fallback, metadata: { ...metadata, langgraph: { ...langgraph, problem } } }];
}

/** A LangGraph raise of no other reader's: its plain interrupt, lifted (a value `{reason, metadata, message?}` means that reason). */
export const liftedPlain = (raise: LangGraphRaise): Json[] => [liftInterrupt(raise.plain())];

/** A LangGraph answer in the resume map: the value the node's `interrupt()` returns (a cancel, as the bridge writes one). */
export function langGraphAnswer(langGraphId: string, status: string, payload: unknown): CommandAnswer {
  return {
    key: langGraphId,
    value: status === 'cancelled' ? { [LANGGRAPH_CANCELLED_KEY]: true, interrupt_id: langGraphId } : (payload ?? null),
    // One resume entry whose payload is the map: the bridge hands it to LangGraph unchanged. An
    // entry beside it would make the bridge wrap them all in a value no node reads.
    exclusive: 'LangGraph',
    asResumeEntry: true,
    // A run that resumes is a Command, which takes no input: a chat message sent with it runs next.
    messagesAfterResume: true,
  };
}
