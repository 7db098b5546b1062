/**
 * The Mastra backend (@ag-ui/mastra): a tool that suspends with `{reason: 'aidev:user_question',
 * metadata: {questions}}` arrives as `reason: 'mastra:tool_suspend'`; the interrupt gets the
 * payload's reason, `message` and `expiresAt`, and `metadata` becomes the payload's metadata plus
 * the untouched `metadata.mastra` the bridge needs. `toolCallId` never changes; the id becomes
 * `mastra::<the bridge's id>` (a native approval's `mastra-approval::…`), and the bridge gets its
 * own id back with the answer (a native approval's as Mastra's `{approved, reason?}`).
 */
import { isRecord } from '../../wire/guards';
import { decodeValue, liftInterrupt, nonEmptyText } from '../../wire/shapes';
import { DISMISSED_APPROVAL_REASON } from '../answers';
import type { InterruptBackend, Json } from '../types';
import { MASTRA_APPROVAL_ID_PREFIX, MASTRA_ID_PREFIX, fromMastraWrapper, isNativeApproval } from './ids';
import { approvalAnswer, enableMastraToolApprovals, hasMastraToolApprovals } from './tool-approvals';

/** A Mastra interrupt with the bridge's id, marked as ours (a native approval's says so, for the resume), lifted. */
function ours(interrupt: Json, bridgeId: string, suspendPayload: unknown): Json[] {
  const prefix = isNativeApproval(suspendPayload) ? MASTRA_APPROVAL_ID_PREFIX : MASTRA_ID_PREFIX;
  return [liftInterrupt({ ...interrupt, id: `${prefix}${bridgeId}` })];
}

export const mastraBackend: InterruptBackend = {
  name: 'Mastra',
  idPrefixes: [MASTRA_APPROVAL_ID_PREFIX, MASTRA_ID_PREFIX],
  fromInterrupt(interrupt) {
    const id = nonEmptyText(interrupt.id);
    const metadata = interrupt.metadata;
    if (!id || !isRecord(metadata) || !isRecord(metadata.mastra)) return undefined;
    return ours(interrupt, id, metadata.mastra.suspendPayload);
  },
  fromEvent({ value }, { runId }) {
    const decoded = decodeValue(value);
    if (!decoded.ok || !isRecord(decoded.value) || decoded.value.type !== 'mastra_suspend') return undefined;
    const interrupt = fromMastraWrapper(decoded.value, runId);
    return interrupt && ours(interrupt, interrupt.id as string, decoded.value.suspendPayload);
  },
  toResume(answers, { report }) {
    const resume = answers.map((answer) => {
      if (answer.interruptId.startsWith(MASTRA_ID_PREFIX))
        return { ...answer, interruptId: answer.interruptId.slice(MASTRA_ID_PREFIX.length) };
      const bridgeId = answer.interruptId.slice(MASTRA_APPROVAL_ID_PREFIX.length);
      // An id with nothing after its prefix is nobody's: it passes unchanged.
      if (bridgeId === '') return answer;
      // Mastra's approve / decline is a resume with {approved, reason?}; a dismissal declines, so
      // the Mastra run never stays suspended.
      return {
        ...answer,
        interruptId: bridgeId,
        status: 'resolved',
        payload:
          answer.status === 'cancelled' ? { approved: false, reason: DISMISSED_APPROVAL_REASON } : approvalAnswer(answer.payload, report),
      };
    });
    return { resume };
  },
  prepareAgent: enableMastraToolApprovals,
  onlySignedIds: hasMastraToolApprovals,
};
