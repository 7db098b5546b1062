/**
 * Mastra's ids as the bridge takes them back, and the suspend wrapper of its legacy events. The
 * reason and the suspend id @ag-ui/mastra sends, which the browser reads too, are in src/wire.
 */
import { isRecord } from '../../wire/guards';
import { MASTRA_SUSPEND_REASON, mastraInterruptId } from '../../wire/ids';
import { nonEmptyText, objectOrJson } from '../../wire/shapes';

type Json = Record<string, unknown>;

/** Marks a Mastra suspend's bridge id (`<runId>::<toolCallId>`); the bridge gets it back without. */
export const MASTRA_ID_PREFIX = 'mastra::';
/**
 * Prefix of a Mastra native tool approval's id (`requireApproval`): `mastra-approval::<runId>::<toolCallId>`.
 * It tells the resume that a dismissal must decline the tool call (a plain cancel would leave
 * the Mastra run suspended); the bridge gets the id without it.
 */
export const MASTRA_APPROVAL_ID_PREFIX = 'mastra-approval::';
/** The key that marks a suspend payload made from Mastra's `tool-call-approval` chunk. */
export const MASTRA_APPROVAL_MARK = 'mastraToolApproval';

/** Whether a suspend payload is a native tool approval's (see `enableMastraToolApprovals`). */
export const isNativeApproval = (suspendPayload: unknown) => isRecord(suspendPayload) && suspendPayload[MASTRA_APPROVAL_MARK] === true;

/**
 * The standard interrupt @ag-ui/mastra sends for a `{type: 'mastra_suspend', ...}` wrapper (before
 * any lift, with the bridge's id), or undefined when the wrapper has no tool call id.
 */
export function fromMastraWrapper(wrapper: Json, fallbackRunId?: string): Json | undefined {
  const toolCallId = nonEmptyText(wrapper.toolCallId);
  if (!toolCallId) return undefined;
  const runId = nonEmptyText(wrapper.runId) ?? fallbackRunId;
  if (!runId) return undefined;
  const responseSchema = objectOrJson(wrapper.resumeSchema);
  return {
    id: mastraInterruptId(runId, toolCallId),
    reason: MASTRA_SUSPEND_REASON,
    toolCallId,
    ...(responseSchema ? { responseSchema } : {}),
    metadata: {
      mastra: {
        type: 'mastra_suspend',
        toolName: wrapper.toolName,
        suspendPayload: wrapper.suspendPayload,
        args: wrapper.args,
        resumeSchema: wrapper.resumeSchema,
        runId,
      },
    },
  };
}
